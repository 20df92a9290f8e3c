import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStudySpecs, writeStudyFiles } from '../../apps/server/dist/dicom/index.js';
import { signIn } from '../support/actions';
import { openBrowser, SCREENSHOTS, type BrowserSession } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';

const FILES = Number(process.env.UPLOAD_BENCH_FILES ?? 2000);
const figures: Record<string, number> = {};

/** Writes generated studies, one folder each, until `count` small DICOM files exist. */
async function writeFolder(
  dir: string,
  count: number,
): Promise<{ files: number; bytes: number; studies: number }> {
  let files = 0;
  let bytes = 0;
  let studies = 0;
  for (const spec of generateStudySpecs(count, 20261122, { now: new Date('2026-06-01T00:00:00Z') })) {
    if (files >= count) break;
    const instances = writeStudyFiles(spec, { rows: 64, columns: 64 }).slice(0, count - files);
    const folder = path.join(dir, `STUDY${String(studies + 1).padStart(4, '0')}`);
    await mkdir(folder);
    await Promise.all(instances.map((f, i) => writeFile(path.join(folder, `IM${i + 1}`), f.bytes)));
    files += instances.length;
    bytes += instances.reduce((n, f) => n + f.bytes.byteLength, 0);
    studies++;
  }
  return { files, bytes, studies };
}

// A benchmark, not a test: `npm run bench:upload` prints the figures (docs/performance.md).
describe('upload wizard figures', () => {
  let server: RunningServer;
  let b: BrowserSession;
  let dir: string;
  let folder: { files: number; bytes: number; studies: number };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'imaging-inbox-upload-bench-'));
    folder = await writeFolder(dir, FILES);
    server = await startServer({ SEED_STUDIES: '0' });
    b = await openBrowser(server.baseUrl);
  }, 300_000);
  afterAll(async () => {
    await b?.close();
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
    await mkdir(SCREENSHOTS, { recursive: true });
    await writeFile(path.join(SCREENSHOTS, 'upload-bench.json'), `${JSON.stringify(figures, null, 2)}\n`);
    console.log('upload bench', figures);
  });

  it(`uploads a ${FILES}-file folder through the wizard`, { timeout: 900_000 }, async () => {
    const page = b.page;
    await signIn(page, 'clinician@demo.local');
    await page.waitForURL('**/group/list');
    await page.goto('/study/upload');

    // The page's JS heap, sampled through the DevTools protocol for the whole run.
    const cdp = await b.context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const heap = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
    };
    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, await heap());
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    // Responsiveness: the longest the main thread kept a 50 ms timer waiting.
    await page.evaluate(() => {
      const w = window as unknown as { __maxLag: number };
      w.__maxLag = 0;
      let last = performance.now();
      setInterval(() => {
        const now = performance.now();
        w.__maxLag = Math.max(w.__maxLag, now - last - 50);
        last = now;
      }, 50);
    });
    figures.heapBeforeMB = +((await heap()) / 2 ** 20).toFixed(1);

    await page.getByRole('combobox', { name: 'Destination' }).click();
    await page.getByRole('option', { name: 'Emergency' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    const scanStart = Date.now();
    await page.getByLabel('DICOM folder').setInputFiles(dir);
    await page
      .getByText(`${folder.studies} exams found in ${folder.files} files`)
      .waitFor({ timeout: 300_000 });
    figures.scanSeconds = +((Date.now() - scanStart) / 1000).toFixed(1);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('checkbox', { name: 'Select all exams' }).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();

    const started = Date.now();
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Exam uploaded successfully').first().waitFor({ timeout: 900_000 });
    const seconds = (Date.now() - started) / 1000;
    sampling = false;
    await sampler;

    figures.files = folder.files;
    figures.studies = folder.studies;
    figures.totalMB = +(folder.bytes / 2 ** 20).toFixed(1);
    figures.uploadSeconds = +seconds.toFixed(1);
    figures.filesPerSecond = +(folder.files / seconds).toFixed(1);
    figures.peakHeapMB = +(peak / 2 ** 20).toFixed(1);
    figures.maxMainThreadLagMs = Math.round(
      await page.evaluate(() => (window as unknown as { __maxLag: number }).__maxLag),
    );
    expect(b.errors).toEqual([]);
  });
});
