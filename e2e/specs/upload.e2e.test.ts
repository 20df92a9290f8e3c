import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { generateStudySpecs, writeStudyFiles } from '../../apps/server/dist/dicom/index.js';
import { apiGet, apiLogin, openGroup, signIn } from '../support/actions';
import { openBrowser, type BrowserSession } from '../support/browser';

const baseUrl = inject('baseUrl');

/** A DICOM date as the page shows it (MM-DD-YYYY). */
const shown = (date: string) => `${date.slice(4, 6)}-${date.slice(6, 8)}-${date.slice(0, 4)}`;

interface Group {
  name: string;
  namespace_id: string;
}

/** Posts one DICOM file to a group through the api, as a previous upload would have. */
async function uploadThroughApi(sid: string, namespaceId: string, bytes: Uint8Array): Promise<void> {
  const res = await fetch(`${baseUrl}/api/v3/storage/namespace/${namespaceId}/image?sid=${sid}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/dicom' },
    body: new Blob([new Uint8Array(bytes)]),
  });
  if (res.status !== 202) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
}

describe('upload wizard: a DICOM folder with two studies, one already on the server', () => {
  let session: BrowserSession;
  let dir: string;
  const [existing, fresh] = generateStudySpecs(2, 424242, { now: new Date('2026-05-01T00:00:00Z') });
  const existingFiles = writeStudyFiles(existing!);
  const freshFiles = writeStudyFiles(fresh!);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'imaging-inbox-upload-'));
    for (const [name, files] of [
      ['A', existingFiles],
      ['B', freshFiles],
    ] as const) {
      await mkdir(path.join(dir, name));
      await Promise.all(files.map((f, i) => writeFile(path.join(dir, name, `IM${i + 1}.dcm`), f.bytes)));
    }
    // Not instances: skipped by the scan.
    await writeFile(path.join(dir, 'DICOMDIR'), new Uint8Array(256));
    await writeFile(path.join(dir, 'README.txt'), 'exported by a CD burner');

    const sid = await apiLogin(baseUrl, 'clinician@demo.local');
    const { groups } = await apiGet<{ groups: Group[] }>(baseUrl, 'group/list', { sid });
    const emergency = groups.find((g) => g.name === 'Emergency')!;
    await uploadThroughApi(sid, emergency.namespace_id, existingFiles[0]!.bytes);

    session = await openBrowser(baseUrl);
    await signIn(session.page, 'clinician@demo.local');
    await session.page.waitForURL('**/group/list');
  });
  afterAll(async () => {
    await session?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('finds both studies, marks the existing one, uploads the new one and shows it in Emergency', async () => {
    const page = session.page;
    await page.getByRole('button', { name: 'Upload exams' }).click();
    await page.waitForURL('**/study/upload');
    const next = page.getByRole('button', { name: 'Next' });
    expect(await next.isDisabled()).toBe(true);

    await page.getByRole('combobox', { name: 'Destination' }).click();
    await page.getByRole('option', { name: 'Emergency' }).click();
    await next.click();

    await page.getByLabel('DICOM folder').setInputFiles(dir);
    const total = existingFiles.length + freshFiles.length;
    await page.getByText(`2 exams found in ${total} files`).waitFor();
    await next.click();

    const table = page.getByRole('table', { name: 'Exams found' });
    // The generator may give both studies the same patient: tell the rows apart by study date.
    expect(shown(existing!.studyDate)).not.toBe(shown(fresh!.studyDate));
    const oldRow = table.getByRole('row').filter({ hasText: shown(existing!.studyDate) });
    const newRow = table.getByRole('row').filter({ hasText: shown(fresh!.studyDate) });
    await oldRow.getByText('Already uploaded').waitFor();
    expect(await oldRow.getByRole('checkbox').isDisabled()).toBe(true);
    expect(await oldRow.getByRole('checkbox').isChecked()).toBe(false);
    expect(await newRow.getByRole('checkbox').isChecked()).toBe(true);
    await newRow.getByText('New').waitFor();
    await page.getByText('You are uploading more than one exam', { exact: false }).waitFor();

    // Only earlier steps are clickable.
    const steps = page.getByRole('tablist', { name: 'Upload steps' }).getByRole('tab');
    expect(await steps.allTextContents()).toEqual(['Destination', 'Find Exams']);
    await next.click();
    await page.getByText('Please ensure MRN is accurate').waitFor();
    // Slow each file down so the running upload can be watched and left.
    await page.route('**/api/v3/storage/namespace/**', async (route) => {
      await new Promise((r) => setTimeout(r, 250));
      await route.continue();
    });
    // Which calls the upload makes, in order: study/add, the files, study/sync (SPEC.md section 7).
    const calls: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (/\/api\/v3\/study\/(add|sync)$/.test(url.pathname)) {
        const body = new URLSearchParams(request.postData() ?? '');
        calls.push(`${url.pathname.split('/').pop()} ${body.get('study_uid') ?? body.get('image_count')}`);
      } else if (url.pathname.includes('/storage/namespace/') && calls.at(-1) !== 'file') calls.push('file');
    });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const nav = page.getByRole('navigation', { name: 'Groups' });
    const running = nav.getByRole('button', { name: 'Upload in progress' });
    await running.waitFor();
    expect(await running.getByRole('status').textContent()).toMatch(/^\d+\.\d MB of \d+\.\d MB \(\d+%\)$/);
    await running.click();
    expect(new URL(page.url()).pathname).toBe('/study/upload');

    // Leave the wizard while the upload runs: it goes on and reports where the user is.
    await openGroup(page, 'Emergency');
    await page.waitForURL(/\/Inbox$/);
    await page.getByText('Exam uploaded successfully').first().waitFor({ timeout: 60_000 });
    await page.unroute('**/api/v3/storage/namespace/**');
    // The list fetched during the upload is refreshed when it ends: the new study's card appears.
    await page.locator('main').getByText(shown(fresh!.studyDate), { exact: false }).first().waitFor();
    await nav.getByRole('button', { name: 'Upload exams' }).click();
    await page.waitForURL('**/study/upload');
    const results = page.getByRole('table', { name: 'Uploaded exams' });
    await results.getByRole('row').filter({ hasText: fresh!.patientId }).getByText('New').waitFor();
    // The wizard is back at its first step.
    await page.getByRole('combobox', { name: 'Destination' }).waitFor();

    const sid = await apiLogin(baseUrl, 'clinician@demo.local');
    const found = await apiGet<{ studies: { image_count: number }[] }>(baseUrl, 'study/list', {
      sid,
      'filter.study_uid.equals': fresh!.studyInstanceUid,
    });
    expect(found.studies).toHaveLength(1);
    expect(found.studies[0]!.image_count).toBe(freshFiles.length);
    const old = await apiGet<{ studies: { image_count: number }[] }>(baseUrl, 'study/list', {
      sid,
      'filter.study_uid.equals': existing!.studyInstanceUid,
    });
    expect(old.studies[0]!.image_count).toBe(1);
    // The study was made before its files and its image count reported after them.
    expect(calls).toEqual([`add ${fresh!.studyInstanceUid}`, 'file', `sync ${freshFiles.length}`]);

    expect(session.errors).toEqual([]);
  });
});
