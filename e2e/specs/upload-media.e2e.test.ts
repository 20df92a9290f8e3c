import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { generateStudySpecs, writeStudyFiles } from '../../apps/server/dist/dicom/index.js';
import { apiGet, apiLogin, signIn } from '../support/actions';
import { openFindExams } from '../support/upload-wizard';
import { openBrowser, type BrowserSession } from '../support/browser';

const baseUrl = inject('baseUrl');
const SAMPLES = '/usr/lib/python3/dist-packages/pydicom/data/test_files';
// pydicom's Deflated Explicit VR Little Endian sample: its header is read by inflating in the page.
const DEFLATED_STUDY = '1.3.6.1.4.1.5962.1.2.0.977067310.6001.0';

/** The number of instances the server holds for `studyUid` in the clinician's account (0: none). */
async function imageCount(studyUid: string): Promise<number> {
  const sid = await apiLogin(baseUrl, 'clinician@demo.local');
  const found = await apiGet<{ studies: { image_count: number }[] }>(baseUrl, 'study/list', {
    sid,
    'filter.study_uid.equals': studyUid,
  });
  return found.studies.reduce((n, s) => n + s.image_count, 0);
}

/** Goes from a scanned selection to the end of the upload. */
async function uploadAll(page: Page): Promise<void> {
  const next = page.getByRole('button', { name: 'Next' });
  await next.click();
  await page.getByRole('table', { name: 'Exams found' }).waitFor();
  await next.click();
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await page.getByText('Exam uploaded successfully').first().waitFor({ timeout: 60_000 });
}

describe('upload wizard: a ZIP archive and a CD folder with a DICOMDIR', () => {
  let session: BrowserSession;
  let dir: string;
  const [zipA, zipB, cdA, cdB, stray, dropped] = generateStudySpecs(6, 777_001, {
    now: new Date('2026-04-01T00:00:00Z'),
  });
  const zipFiles = [writeStudyFiles(zipA!), writeStudyFiles(zipB!)];
  const cdFiles = [writeStudyFiles(cdA!), writeStudyFiles(cdB!)];
  const droppedFiles = writeStudyFiles(dropped!);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'imaging-inbox-media-'));
    // A ZIP of a two-study folder (deflated entries, nested folders), a deflated DICOM file and junk.
    const tree = path.join(dir, 'tree');
    for (const [s, files] of zipFiles.entries()) {
      await mkdir(path.join(tree, `PATIENT${s}`, 'SERIES'), { recursive: true });
      await Promise.all(
        files.map((f, i) => writeFile(path.join(tree, `PATIENT${s}`, 'SERIES', `IM${i + 1}.dcm`), f.bytes)),
      );
    }
    await copyFile(path.join(SAMPLES, 'image_dfl.dcm'), path.join(tree, 'deflated.dcm'));
    await writeFile(path.join(tree, 'report.pdf'), '%PDF-1.4 not an instance');
    execFileSync('zip', ['-q', '-r', path.join(dir, 'exams.zip'), '.'], { cwd: tree });

    // A CD as burners write it: DICOM/ with a DICOMDIR made by dcmtk, a viewer, autorun, and a
    // DICOM file the DICOMDIR does not list (the viewer's demo image), which must not be uploaded.
    const cd = path.join(dir, 'CD');
    await mkdir(path.join(cd, 'DICOM'), { recursive: true });
    let n = 0;
    for (const files of cdFiles) {
      for (const f of files)
        await writeFile(path.join(cd, 'DICOM', `IMG${String(++n).padStart(5, '0')}`), f.bytes);
    }
    execFileSync('dcmmkdir', ['+r', '+I', 'DICOM'], { cwd: cd, stdio: 'pipe' });
    await mkdir(path.join(cd, 'VIEWER'));
    await writeFile(path.join(cd, 'VIEWER', 'VIEWER.EXE'), 'MZ');
    await writeFile(path.join(cd, 'VIEWER', 'DEMO.DCM'), writeStudyFiles(stray!)[0]!.bytes);
    await writeFile(path.join(cd, 'AUTORUN.INF'), '[autorun]\nopen=VIEWER\\VIEWER.EXE');
    // One listed file lost (a scratched disc): named, and the rest still goes.
    await rm(path.join(cd, 'DICOM', `IMG${String(n).padStart(5, '0')}`));

    // A stored (uncompressed) ZIP to drop: its entries go up as slices of the archive.
    const flat = path.join(dir, 'flat');
    await mkdir(flat);
    await Promise.all(droppedFiles.map((f, i) => writeFile(path.join(flat, `I${i}`), f.bytes)));
    execFileSync('zip', ['-q', '-0', '-r', path.join(dir, 'dropped.zip'), '.'], { cwd: flat });

    session = await openBrowser(baseUrl);
    await signIn(session.page, 'clinician@demo.local');
    await session.page.waitForURL('**/group/list');
  });
  afterAll(async () => {
    await session?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a picked ZIP entry by entry (deflated DICOM included) and uploads its studies', async () => {
    const page = session.page;
    await openFindExams(page);
    await page.getByLabel('DICOM files', { exact: true }).setInputFiles(path.join(dir, 'exams.zip'));
    const instances = zipFiles[0]!.length + zipFiles[1]!.length + 1;
    // Counted: the instances and report.pdf (read, not DICOM).
    await page.getByText(`3 exams found in ${instances} files`).waitFor();
    await uploadAll(page);

    expect(await imageCount(zipA!.studyInstanceUid)).toBe(zipFiles[0]!.length);
    expect(await imageCount(zipB!.studyInstanceUid)).toBe(zipFiles[1]!.length);
    expect(await imageCount(DEFLATED_STUDY)).toBe(1);
    expect(session.errors).toEqual([]);
  });

  it('uploads only what a DICOMDIR lists, and names the listed file that is missing', async () => {
    const page = session.page;
    await openFindExams(page);
    await page.getByLabel('DICOM folder').setInputFiles(path.join(dir, 'CD'));
    const listed = cdFiles[0]!.length + cdFiles[1]!.length;
    await page.getByText(`2 exams found in ${listed - 1} files`).waitFor();
    await page
      .getByRole('alert', { name: 'Files not taken' })
      .getByText(/CD\/DICOM\/IMG\d{5}: listed in the DICOMDIR but missing from the selected media/)
      .waitFor();
    await uploadAll(page);

    expect(await imageCount(cdA!.studyInstanceUid)).toBe(cdFiles[0]!.length);
    expect(await imageCount(cdB!.studyInstanceUid)).toBe(cdFiles[1]!.length - 1);
    expect(await imageCount(stray!.studyInstanceUid)).toBe(0);
    expect(session.errors).toEqual([]);
  });

  it('takes a ZIP dropped on the drop zone', async () => {
    const page = session.page;
    await openFindExams(page);
    const bytes = [...(await readFile(path.join(dir, 'dropped.zip')))];
    await page.getByLabel('Drop DICOM files, folders or ZIP files here').evaluate((zone, content) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(content)], 'dropped.zip', { type: 'application/zip' }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    }, bytes);
    await page.getByText(new RegExp(`1 exams? found in ${droppedFiles.length} files`)).waitFor();
    await uploadAll(page);
    expect(await imageCount(dropped!.studyInstanceUid)).toBe(droppedFiles.length);
    expect(session.errors).toEqual([]);
  });
});
