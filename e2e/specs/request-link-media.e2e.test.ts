import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { generateStudySpecs, writeStudyFiles } from '../../apps/server/dist/dicom/index.js';
import { apiGet, apiLogin } from '../support/actions';
import { addUploadLink, groupNamespaceId } from '../support/links';
import { openBrowser, type BrowserSession } from '../support/browser';
import { mailedLinkPath } from '../support/mail';

const baseUrl = inject('baseUrl');
const GROUP = 'Cardiology';

interface ListedStudy {
  image_count: number;
  source_ae_title: string;
  storage_namespace: string;
}

/** The studies the requester sees for `studyUid`. */
async function studiesOf(sid: string, studyUid: string): Promise<ListedStudy[]> {
  const found = await apiGet<{ studies: ListedStudy[] }>(baseUrl, 'study/list', {
    sid,
    'filter.study_uid.equals': studyUid,
  });
  return found.studies;
}

/** Writes each file of `files` under `dir/sub` as IM1.dcm, IM2.dcm… */
async function writeInstances(dir: string, files: { bytes: Uint8Array }[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  await Promise.all(files.map((f, i) => writeFile(path.join(dir, `IM${i + 1}.dcm`), f.bytes)));
}

const zip = (cwd: string, archive: string, ...args: string[]) =>
  execFileSync('zip', ['-q', '-r', ...args, archive, '.'], { cwd });

describe('request link: an outside party uploads a ZIP holding DICOM files and ZIPs inside it', () => {
  let outsider: BrowserSession | undefined;
  let dir: string;
  let sid: string;
  let namespaceId: string;
  let linkPath: string;
  // Fresh studies and patients every run: the demo server is shared by every spec.
  const seed = Date.now() % 1_000_000_007;
  const [plain, storedInner, deflatedInner, locked, cd, dropped] = generateStudySpecs(6, seed, {
    now: new Date('2026-02-01T00:00:00Z'),
  }).map((spec, i) => ({
    ...spec,
    patientId: `LINKZIP-${seed}-${i}`,
    // One readable, distinct family name per exam: the found-exams table tells them apart by it.
    patientName: `${['ADAMS', 'BROOKS', 'CARTER', 'DIAZ', 'EVANS', 'FOSTER'][i]}^JO`,
  }));
  const small = { rows: 16, columns: 16 };
  const plainFiles = writeStudyFiles(plain!, small);
  const storedFiles = writeStudyFiles(storedInner!, small);
  const deflatedFiles = writeStudyFiles(deflatedInner!, small);
  const lockedFiles = writeStudyFiles(locked!, small).slice(0, 1);
  // The CD loses one listed file on the way; at least one must be left to upload, whatever the seed.
  const cdFiles = writeStudyFiles(
    {
      ...cd!,
      series: cd!.series.map((s, i) => (i === 0 ? { ...s, instanceCount: Math.max(2, s.instanceCount) } : s)),
    },
    small,
  );
  const droppedFiles = writeStudyFiles(dropped!, small);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'imaging-inbox-link-media-'));
    const tree = path.join(dir, 'tree');
    await writeInstances(path.join(tree, 'PLAIN'), plainFiles);
    await writeInstances(path.join(dir, 'b'), storedFiles);
    await writeInstances(path.join(dir, 'c'), deflatedFiles);
    await writeInstances(path.join(dir, 'd'), lockedFiles);
    // A ZIP kept as is inside the outer one (Info-ZIP stores .zip members), a ZIP under a name
    // that does not say so (deflated by the outer one), and a password-protected ZIP.
    await mkdir(path.join(tree, 'NESTED'));
    zip(path.join(dir, 'b'), path.join(tree, 'NESTED', 'inner.zip'));
    zip(path.join(dir, 'c'), path.join(tree, 'NESTED', 'archive.dat'), '-0');
    zip(path.join(dir, 'd'), path.join(tree, 'secret.zip'), '-P', 'not-told');
    await writeFile(path.join(tree, 'readme.txt'), 'exams for the cardiology team');
    zip(tree, path.join(dir, 'exams.zip'));

    // A CD: DICOM/ indexed by a DICOMDIR (dcmtk), a viewer, and one listed file lost.
    const disc = path.join(dir, 'CD');
    await mkdir(path.join(disc, 'DICOM'), { recursive: true });
    await Promise.all(
      cdFiles.map((f, i) =>
        writeFile(path.join(disc, 'DICOM', `IMG${String(i + 1).padStart(4, '0')}`), f.bytes),
      ),
    );
    execFileSync('dcmmkdir', ['+r', '+I', 'DICOM'], { cwd: disc, stdio: 'pipe' });
    await mkdir(path.join(disc, 'VIEWER'));
    await writeFile(path.join(disc, 'VIEWER', 'VIEWER.EXE'), 'MZ');
    await rm(path.join(disc, 'DICOM', 'IMG0001'));
    // The page must inflate archive.dat whole before reading its directory; inner.zip is a slice.
    const methods = execFileSync('python3', [
      '-c',
      'import sys, zipfile\nfor i in zipfile.ZipFile(sys.argv[1]).infolist(): print(i.filename, i.compress_type)',
      path.join(dir, 'exams.zip'),
    ]).toString();
    expect(methods).toContain('NESTED/archive.dat 8');
    expect(methods).toContain('NESTED/inner.zip 0');

    sid = await apiLogin(baseUrl, 'clinician@demo.local');
    namespaceId = await groupNamespaceId(baseUrl, sid, GROUP);
    const email = `zip-${seed}@clinic.example`;
    await addUploadLink(baseUrl, sid, {
      namespaceId,
      email,
      maxHits: 3,
      message: 'Please send the prior echo and CT',
    });
    linkPath = await mailedLinkPath(baseUrl, email);
  });
  afterAll(async () => {
    await outsider?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('scans the picked ZIP with its inner ZIPs, lists the studies and the encrypted entry', async () => {
    outsider = await openBrowser(baseUrl);
    const page = outsider.page;
    await page.goto(linkPath);
    await page.getByText('Please send the prior echo and CT').waitFor();
    await page.getByLabel('DICOM files', { exact: true }).setInputFiles(path.join(dir, 'exams.zip'));
    const instances = plainFiles.length + storedFiles.length + deflatedFiles.length;
    await page.getByText(new RegExp(`^3 exams found in ${instances} files`)).waitFor({ timeout: 30_000 });
    const table = page.getByRole('table', { name: 'Exams found' });
    for (const [spec, files] of [
      [plain!, plainFiles],
      [storedInner!, storedFiles],
      [deflatedInner!, deflatedFiles],
    ] as const) {
      const row = table
        .getByRole('row')
        .filter({ hasText: new RegExp(spec.patientName.split('^')[0]!, 'i') });
      expect(await row.getByRole('cell').last().textContent()).toBe(String(files.length));
    }
    await page.getByText('1 other file is not sent: not DICOM, or not listed in the DICOMDIR').waitFor();
    await page
      .getByRole('alert', { name: 'Files not taken' })
      .getByText('exams.zip/secret.zip/IM1.dcm: encrypted (password-protected), it cannot be read')
      .waitFor();
  });

  it('uploads every instance found into the link group', async () => {
    const page = outsider!.page;
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Files uploaded successfully').waitFor({ timeout: 60_000 });
    for (const [spec, files] of [
      [plain!, plainFiles],
      [storedInner!, storedFiles],
      [deflatedInner!, deflatedFiles],
    ] as const) {
      expect(await studiesOf(sid, spec.studyInstanceUid)).toEqual([
        expect.objectContaining({
          image_count: files.length,
          source_ae_title: 'LINK',
          storage_namespace: namespaceId,
        }),
      ]);
    }
    expect(await studiesOf(sid, locked!.studyInstanceUid)).toEqual([]);
    expect(outsider!.errors).toEqual([]);
  });

  it('takes a CD folder by its DICOMDIR, names the lost file and uploads the rest', async () => {
    const page = outsider!.page;
    await page.getByLabel('DICOM folder').setInputFiles(path.join(dir, 'CD'));
    await page.getByText(new RegExp(`^1 exams? found in ${cdFiles.length - 1} files`)).waitFor();
    await page
      .getByRole('alert', { name: 'Files not taken' })
      .getByText('CD/DICOM/IMG0001: listed in the DICOMDIR but missing from the selected media')
      .waitFor();
    // The DICOMDIR itself and the viewer.
    await page.getByText(/^2 other files are not sent/).waitFor();
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Files uploaded successfully').waitFor({ timeout: 60_000 });
    expect(await studiesOf(sid, cd!.studyInstanceUid)).toEqual([
      expect.objectContaining({ image_count: cdFiles.length - 1, storage_namespace: namespaceId }),
    ]);
    expect(outsider!.errors).toEqual([]);
  });

  it('takes a dropped ZIP whose DICOM files are in a ZIP inside it', async () => {
    const page = outsider!.page;
    await writeInstances(path.join(dir, 'e', 'SERIES'), droppedFiles);
    await mkdir(path.join(dir, 'f'));
    zip(path.join(dir, 'e'), path.join(dir, 'f', 'series.zip'));
    zip(path.join(dir, 'f'), path.join(dir, 'dropped.zip'));
    const bytes = [...(await readFile(path.join(dir, 'dropped.zip')))];
    await page.getByLabel('Drop DICOM files, folders or ZIP files here').evaluate((zone, content) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(content)], 'dropped.zip', { type: 'application/zip' }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    }, bytes);
    await page.getByText(new RegExp(`^1 exams? found in ${droppedFiles.length} files`)).waitFor();
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Files uploaded successfully').waitFor({ timeout: 60_000 });
    expect(await studiesOf(sid, dropped!.studyInstanceUid)).toEqual([
      expect.objectContaining({ image_count: droppedFiles.length, storage_namespace: namespaceId }),
    ]);
    expect(outsider!.errors).toEqual([]);
  });

  it('says no DICOM files were found in a ZIP of letters, and uploads nothing', async () => {
    const page = outsider!.page;
    const empty = path.join(dir, 'empty');
    await mkdir(empty);
    await writeFile(path.join(empty, 'letter.txt'), 'no images here');
    zip(empty, path.join(dir, 'letters.zip'));
    await page.getByLabel('DICOM files', { exact: true }).setInputFiles({
      name: 'letters.zip',
      mimeType: 'application/zip',
      buffer: await readFile(path.join(dir, 'letters.zip')),
    });
    await page.getByText('Dicom files not found in the selected folder').waitFor();
    expect(await page.getByRole('button', { name: 'Upload', exact: true }).isDisabled()).toBe(true);
  });
});
