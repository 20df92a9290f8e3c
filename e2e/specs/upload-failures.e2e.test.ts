import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { generateStudySpecs, writeStudyFiles } from '../../apps/server/dist/dicom/index.js';
import { apiGet, apiLogin, signIn } from '../support/actions';
import { openFindExams } from '../support/upload-wizard';
import { openBrowser, type BrowserSession } from '../support/browser';

const baseUrl = inject('baseUrl');

describe('upload wizard: a file the server refuses is listed and only it is sent again', () => {
  let session: BrowserSession;
  let dir: string;
  const [spec] = generateStudySpecs(1, 5150, { now: new Date('2026-03-01T00:00:00Z') });
  // One series of four instances; the third is cut short, as a copy from a failing CD would be:
  // its header reads fine in the browser, but the server finds the pixel data running past the end.
  const files = writeStudyFiles({ ...spec!, series: [{ ...spec!.series[0]!, instanceCount: 4 }] });
  const cut = 2;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'imaging-inbox-upload-failures-'));
    await mkdir(path.join(dir, 'CD'));
    await Promise.all(
      files.map((f, i) =>
        writeFile(
          path.join(dir, 'CD', `IM${i + 1}`),
          i === cut ? f.bytes.slice(0, f.bytes.length - 100) : f.bytes,
        ),
      ),
    );
    session = await openBrowser(baseUrl);
    await signIn(session.page, 'clinician@demo.local');
    await session.page.waitForURL('**/group/list');
  });
  afterAll(async () => {
    await session?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('shows the failed file with its reason, and Retry sends that file alone', async () => {
    const page = session.page;
    await openFindExams(page);
    await page.getByLabel('DICOM folder').setInputFiles(dir);
    await page.getByText(`1 exam found in ${files.length} files`).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('checkbox', { name: 'Select all exams' }).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();

    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v3/storage/namespace/')) sent.push(request.url());
    });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Upload to Emergency' });
    await panel.getByText('Failed to upload exams').waitFor({ timeout: 60_000 });
    // A refused file is not retried by the queue: one request per file.
    expect(sent).toHaveLength(files.length);
    const failed = panel.getByRole('list', { name: 'Failed files' }).getByRole('listitem');
    expect(await failed.allTextContents()).toEqual([`${path.basename(dir)}/CD/IM${cut + 1}INVALID_DICOM`]);
    // The others are stored: the study is New with three of four files.
    const row = panel
      .getByRole('table', { name: 'Uploaded exams' })
      .getByRole('row')
      .filter({ hasText: spec!.patientId });
    await row.getByText('New').waitFor();
    expect(await row.getByRole('cell').nth(3).textContent()).toBe(`${files.length - 1} / ${files.length}`);

    sent.length = 0;
    await panel.getByRole('button', { name: 'Retry failed files' }).click();
    await panel.getByText('Uploading to Emergency').waitFor({ state: 'detached', timeout: 60_000 });
    await panel.getByText('Failed to upload exams').waitFor();
    expect(sent).toHaveLength(1);
    expect(await failed.allTextContents()).toEqual([`${path.basename(dir)}/CD/IM${cut + 1}INVALID_DICOM`]);
    await panel.getByRole('button', { name: 'Retry failed files' }).waitFor();

    const sid = await apiLogin(baseUrl, 'clinician@demo.local');
    const found = await apiGet<{ studies: { image_count: number }[] }>(baseUrl, 'study/list', {
      sid,
      'filter.study_uid.equals': spec!.studyInstanceUid,
    });
    expect(found.studies[0]!.image_count).toBe(files.length - 1);
    // The refused file's 412 is an answer the page expected, not an error of the page.
    expect(session.errors.filter((e) => !/status of 412/.test(e))).toEqual([]);
  });
});
