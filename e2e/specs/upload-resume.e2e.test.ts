import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { StudySpec } from '../../apps/server/dist/dicom/index.js';
import { generateStudySpecs, writeStudyFiles } from '../../apps/server/dist/dicom/index.js';
import { apiGet, apiLogin, signIn } from '../support/actions';
import { chooseDestination } from '../support/upload-wizard';
import { openBrowser, type BrowserSession } from '../support/browser';

const baseUrl = inject('baseUrl');
const CHUNK = 4 * 1024 * 1024;

/**
 * A folder holding one study: a few small instances and one large one (about 18 MB, five chunks),
 * all real DICOM from the server's generator.
 */
async function studyFolder(spec: StudySpec, dir: string) {
  const first = spec.series[0]!;
  const large = writeStudyFiles(
    { ...spec, series: [{ ...first, instanceCount: 1 }] },
    { rows: 3000, columns: 3000 },
  )[0]!;
  const small = writeStudyFiles(spec)
    .filter((f) => f.sopInstanceUid !== large.sopInstanceUid)
    .slice(0, 3);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'LARGE.dcm'), large.bytes);
  await Promise.all(small.map((f, i) => writeFile(path.join(dir, `IM${i + 1}.dcm`), f.bytes)));
  return { large, small, count: small.length + 1 };
}

/** The offset of a chunk request, from its query string. */
const offsetOf = (request: Request) => Number(new URL(request.url()).searchParams.get('offset'));

/** Picks single files (no folder path, as when dropped): their resume key carries a content fingerprint. */
async function chooseFiles(page: Page, files: string[]) {
  await chooseDestination(page);
  await page.getByLabel('DICOM files', { exact: true }).setInputFiles(files);
  await page.getByText(`1 exam found in ${files.length} files`).waitFor();
  await page.getByRole('button', { name: 'Next' }).click();
}

async function chooseFolder(page: Page, dir: string, files: number) {
  await chooseDestination(page);
  await page.getByLabel('DICOM folder').setInputFiles(dir);
  await page.getByText(`1 exam found in ${files} files`).waitFor();
  await page.getByRole('button', { name: 'Next' }).click();
}

/** What the upload resume store holds in the page's IndexedDB. */
function resumeRecords(page: Page): Promise<{ stored: number; sessions: number }> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('imaging-inbox-upload-resume');
        open.onerror = () => reject(new Error('cannot open the resume database'));
        open.onsuccess = () => {
          const all = open.result.transaction('records').objectStore('records').getAll();
          all.onsuccess = () => {
            const records = all.result as { done?: 1; session?: string }[];
            open.result.close();
            resolve({
              stored: records.filter((r) => r.done).length,
              sessions: records.filter((r) => r.session).length,
            });
          };
        };
      }),
  );
}

async function storedStudy(studyUid: string) {
  const sid = await apiLogin(baseUrl, 'clinician@demo.local');
  const found = await apiGet<{ studies: { image_count: number; size: number }[] }>(baseUrl, 'study/list', {
    sid,
    'filter.study_uid.equals': studyUid,
  });
  return found.studies[0];
}

const CHUNKS = '**/api/v3/upload/session/chunk**';

/**
 * Lets `count` chunk requests through, then cuts every further one (a network that dropped);
 * answers how many went through so far.
 */
async function cutChunksAfter(page: Page, count: number): Promise<() => number> {
  let through = 0;
  await page.route(CHUNKS, async (route) => {
    if (through < count) {
      through++;
      await route.continue();
    } else {
      await route.abort('connectionreset');
    }
  });
  return () => through;
}

describe('upload wizard: large files go in chunks and resume after a reload or a network cut', () => {
  let session: BrowserSession;
  let root: string;
  const [reloaded, cut, twins] = generateStudySpecs(3, 8080, { now: new Date('2026-04-01T00:00:00Z') });

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'imaging-inbox-resume-'));
    session = await openBrowser(baseUrl);
    await signIn(session.page, 'clinician@demo.local');
    await session.page.waitForURL('**/group/list');
  });
  afterAll(async () => {
    await session?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('goes on after a page reload: stored files are skipped, the large one continues at the held offset', async () => {
    const page = session.page;
    const dir = path.join(root, 'reload');
    const { large, small, count } = await studyFolder(reloaded!, dir);
    await page.goto('/study/upload');
    await chooseFolder(page, dir, count);
    await page.getByRole('button', { name: 'Next' }).click();

    // Let the small files and two chunks through, then cut every further chunk: the large file
    // fails after its retries, with two chunks held by the server.
    const chunksThrough = await cutChunksAfter(page, 2);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Failed to upload exams').first().waitFor({ timeout: 60_000 });
    const failed = page.getByRole('list', { name: 'Failed files' });
    await failed.getByText('LARGE.dcm', { exact: false }).waitFor();
    expect(chunksThrough()).toBe(2);
    await page.unroute(CHUNKS);
    // A record the old localStorage store left: the reloaded page deletes it.
    await page.evaluate(() => localStorage.setItem('imaging-inbox.upload.v1:ns:IM1|1|0|', '{"done":1}'));
    await page.reload();
    await page.getByRole('combobox', { name: 'Destination' }).waitFor();
    // The resume records live in IndexedDB (small files stored, the large one's session), not localStorage.
    expect(await resumeRecords(page)).toEqual({ stored: small.length, sessions: 1 });
    expect(
      await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes('.upload.'))),
    ).toEqual([]);

    // The same folder again: the study is already on the server, but only partly, so it is offered.
    const sent: Request[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/upload/session/chunk') || request.url().includes('/storage/namespace/')) {
        sent.push(request);
      }
    });
    await page.getByRole('combobox', { name: 'Destination' }).waitFor();
    await chooseFolder(page, dir, count);
    const row = page
      .getByRole('table', { name: 'Exams found' })
      .getByRole('row')
      .filter({ hasText: reloaded!.patientId });
    await row.getByText('Partly uploaded').waitFor();
    expect(await row.getByRole('checkbox').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Exam uploaded successfully').first().waitFor({ timeout: 60_000 });

    // Nothing the server held was sent again: no small file, no chunk below 8 MB.
    expect(sent.filter((r) => r.url().includes('/storage/namespace/'))).toEqual([]);
    const offsets = sent.map(offsetOf);
    expect(Math.min(...offsets)).toBe(2 * CHUNK);
    expect(offsets).toEqual([...new Set(offsets)]);
    expect(offsets.length).toBe(Math.ceil(large.bytes.byteLength / CHUNK) - 2);

    const study = await storedStudy(reloaded!.studyInstanceUid);
    expect(study?.image_count).toBe(count);
    expect(study?.size).toBe(large.bytes.byteLength + small.reduce((n, f) => n + f.bytes.byteLength, 0));
    expect(session.errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });

  it('waits out a network cut and sends each chunk once', async () => {
    const page = session.page;
    const dir = path.join(root, 'cut');
    const { large, count } = await studyFolder(cut!, dir);
    await page.goto('/study/upload');
    await chooseFolder(page, dir, count);
    await page.getByRole('button', { name: 'Next' }).click();

    const held: number[] = [];
    let cutDone = false;
    page.on('response', (response) => {
      if (!response.url().includes('/upload/session/chunk') || response.status() !== 200) return;
      held.push(offsetOf(response.request()));
      if (!cutDone) {
        cutDone = true;
        // The line drops after the first chunk and comes back two seconds later.
        void session.context
          .setOffline(true)
          .then(() => new Promise((r) => setTimeout(r, 2000)))
          .then(() => session.context.setOffline(false));
      }
    });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Exam uploaded successfully').first().waitFor({ timeout: 60_000 });
    expect(cutDone).toBe(true);
    expect(held).toEqual([...new Set(held)].sort((a, b) => a - b));
    expect(held.length).toBe(Math.ceil(large.bytes.byteLength / CHUNK));
    const study = await storedStudy(cut!.studyInstanceUid);
    expect(study?.image_count).toBe(count);
  });

  it('never resumes a picked file into the session of another of the same name, size and date', async () => {
    const page = session.page;
    const { large } = await studyFolder(twins!, path.join(root, 'twins-src'));
    // Two files named LARGE.dcm, same size, same date, same header: only their last bytes differ.
    const first = path.join(root, 'twin-a', 'LARGE.dcm');
    const second = path.join(root, 'twin-b', 'LARGE.dcm');
    const other = Buffer.from(large.bytes);
    other[other.length - 10] = other[other.length - 10]! ^ 0xff;
    const date = new Date('2026-03-01T00:00:00Z');
    for (const [file, bytes] of [
      [first, large.bytes],
      [second, other],
    ] as const) {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, bytes);
      await utimes(file, date, date);
    }
    await page.goto('/study/upload');
    await chooseFiles(page, [first]);
    await page.getByRole('button', { name: 'Next' }).click();
    await cutChunksAfter(page, 2);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Failed to upload exams').first().waitFor({ timeout: 60_000 });
    await page.unroute(CHUNKS);
    await page.reload();

    // The other file: a new session, every chunk from 0; the first file's session is left alone.
    const offsets: number[] = [];
    const calls: string[] = [];
    const heads: (string | null)[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith('/upload/session/chunk')) offsets.push(offsetOf(request));
      if (url.pathname.includes('/upload/session/')) calls.push(url.pathname.split('/').pop()!);
      if (url.pathname.endsWith('/upload/session/create')) heads.push(url.searchParams.get('head_sha256'));
    });
    await page.getByRole('combobox', { name: 'Destination' }).waitFor();
    await chooseFiles(page, [second]);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Exam uploaded successfully').first().waitFor({ timeout: 60_000 });
    expect(calls[0]).toBe('create');
    // The session is tied to the file by the SHA-256 of its head.
    expect(heads).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)]);
    expect(calls).not.toContain('status');
    expect(offsets[0]).toBe(0);
    expect(offsets.length).toBe(Math.ceil(large.bytes.byteLength / CHUNK));
    // The interrupted file's session and the stored file's mark, under two keys.
    const records = await resumeRecords(page);
    expect(records.sessions).toBeGreaterThanOrEqual(1);
    const study = await storedStudy(twins!.studyInstanceUid);
    expect(study?.size).toBe(other.byteLength);
  });
});
