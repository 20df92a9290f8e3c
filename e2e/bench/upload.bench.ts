import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStudySpecs, writeStudyFiles } from '../../apps/server/dist/dicom/index.js';
import { signIn } from '../support/actions';
import { openBrowser, SCREENSHOTS, type BrowserSession } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';
import { topSelfTime, type CpuProfile } from './cpu-profile';
import { chromiumRenderers, cpuMsOf } from './process-memory';

const FILES = Number(process.env.UPLOAD_BENCH_FILES ?? 2000);
/** `one`: every file in one study (one series), to see whether a study's size costs per file. */
const ONE_STUDY = process.env.UPLOAD_BENCH_STUDIES === 'one';
/** Set: write CPU profiles of the page's main thread and of the server, and print their top functions. */
const PROFILE = process.env.UPLOAD_BENCH_PROFILE === '1';
const figures: Record<string, number> = {};
const MB = 2 ** 20;

interface Lag {
  /** Longest lateness of a 50 ms timer. */
  max: number;
  /** Longest task, and how many tasks over 50 ms took how long together. */
  longest: number;
  count: number;
  total: number;
}
/** What the bench keeps on the page's window. */
interface BenchWindow {
  __uploadAt: number;
  __lag: { find: Lag; upload: Lag };
}

/** Writes generated studies, one folder each, until `count` small DICOM files exist. */
async function writeFolder(
  dir: string,
  count: number,
): Promise<{ files: number; bytes: number; studies: number }> {
  let files = 0;
  let bytes = 0;
  let studies = 0;
  const specs = generateStudySpecs(ONE_STUDY ? 1 : count, 20261122, {
    now: new Date('2026-06-01T00:00:00Z'),
  });
  if (ONE_STUDY) specs[0]!.series = [{ ...specs[0]!.series[0]!, instanceCount: count }];
  for (const spec of specs) {
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
  let serverProfiles: string;
  let folder: { files: number; bytes: number; studies: number };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'imaging-inbox-upload-bench-'));
    serverProfiles = path.join(dir, 'server-profile');
    folder = await writeFolder(dir, FILES);
    server = await startServer(
      { SEED_STUDIES: '0' },
      PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${serverProfiles}`] : [],
    );
    b = await openBrowser(server.baseUrl);
  }, 300_000);
  afterAll(async () => {
    await b?.close();
    await server?.stop();
    if (PROFILE) await printServerProfile(serverProfiles);
    await rm(dir, { recursive: true, force: true });
    await mkdir(SCREENSHOTS, { recursive: true });
    await writeFile(path.join(SCREENSHOTS, 'upload-bench.json'), `${JSON.stringify(figures, null, 2)}\n`);
    console.log('upload bench', figures);
  });

  it(`uploads a ${FILES}-file folder through the wizard`, { timeout: 1_800_000 }, async () => {
    const page = b.page;
    await signIn(page, 'clinician@demo.local');
    await page.waitForURL('**/group/list');
    await page.goto('/study/upload');

    // The page's JS heap and DOM size, sampled through the DevTools protocol for the whole run,
    // and the resident memory of Chromium's renderer processes (page and worker) from /proc.
    const cdp = await b.context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const metrics = async () => {
      const { metrics: list } = await cdp.send('Performance.getMetrics');
      const value = (name: string) => list.find((m) => m.name === name)?.value ?? 0;
      return { heap: value('JSHeapUsedSize'), nodes: value('Nodes') };
    };
    // Figures per phase: `find` (scan, grouping, the Select Exams table) and `upload` (sending).
    type Phase = 'find' | 'upload';
    let phase: Phase = 'find';
    const blank = () => ({ heap: 0, nodes: 0, rendererRss: 0 });
    const peak: Record<Phase, ReturnType<typeof blank>> = { find: blank(), upload: blank() };
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const [m, renderers] = await Promise.all([metrics(), chromiumRenderers()]);
        const at = peak[phase];
        at.heap = Math.max(at.heap, m.heap);
        at.nodes = Math.max(at.nodes, m.nodes);
        // The largest renderer is the page's (its worker runs in the same process).
        at.rendererRss = Math.max(at.rendererRss, ...renderers.map((p) => p.rssBytes));
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    // Responsiveness: long tasks (over 50 ms) as the browser reports them, and the longest a
    // 50 ms timer was kept waiting; split at the moment Upload is clicked.
    await page.evaluate(() => {
      const w = window as unknown as BenchWindow;
      const blankLag = () => ({ max: 0, longest: 0, count: 0, total: 0 });
      w.__uploadAt = Infinity;
      w.__lag = { find: blankLag(), upload: blankLag() };
      const lagAt = (time: number) => (time >= w.__uploadAt ? w.__lag.upload : w.__lag.find);
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          const lag = lagAt(entry.startTime);
          lag.longest = Math.max(lag.longest, entry.duration);
          lag.count++;
          lag.total += entry.duration;
        }
      }).observe({ type: 'longtask' });
      let last = performance.now();
      setInterval(() => {
        const now = performance.now();
        const lag = lagAt(last);
        lag.max = Math.max(lag.max, now - last - 50);
        last = now;
      }, 50);
    });
    figures.heapBeforeMB = +((await metrics()).heap / MB).toFixed(1);
    if (PROFILE) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
      await cdp.send('Profiler.start');
    }

    const begun = Date.now();
    await page.getByRole('combobox', { name: 'Destination' }).click();
    await page.getByRole('option', { name: 'Emergency' }).click();
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    const scanStart = Date.now();
    await page.getByLabel('DICOM folder').setInputFiles(dir);
    await page
      .getByText(new RegExp(`^${folder.studies} exams? found in ${folder.files} files`))
      .waitFor({ timeout: 300_000 });
    figures.scanSeconds = +((Date.now() - scanStart) / 1000).toFixed(1);
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByRole('checkbox', { name: 'Select all exams' }).waitFor();
    await page.getByRole('button', { name: 'Next', exact: true }).click();

    const serverCpuBefore = await cpuMsOf(server.pid);
    const started = Date.now();
    phase = 'upload';
    await page.evaluate(() => {
      (window as unknown as BenchWindow).__uploadAt = performance.now();
    });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Exam uploaded successfully').first().waitFor({ timeout: 1_800_000 });
    const seconds = (Date.now() - started) / 1000;
    const serverCpuMs = (await cpuMsOf(server.pid)) - serverCpuBefore;
    figures.totalSeconds = +((Date.now() - begun) / 1000).toFixed(1);
    sampling = false;
    await sampler;
    if (PROFILE) {
      const { profile } = await cdp.send('Profiler.stop');
      await mkdir(SCREENSHOTS, { recursive: true });
      await writeFile(path.join(SCREENSHOTS, 'upload-bench-page.cpuprofile'), JSON.stringify(profile));
      console.log('page main thread, self time (ms)', topSelfTime(profile));
    }

    const lag = await page.evaluate(() => (window as unknown as BenchWindow).__lag);
    const renderers = await chromiumRenderers();
    figures.files = folder.files;
    figures.studies = folder.studies;
    figures.totalMB = +(folder.bytes / MB).toFixed(1);
    figures.uploadSeconds = +seconds.toFixed(1);
    figures.filesPerSecond = +(folder.files / seconds).toFixed(1);
    for (const at of ['find', 'upload'] as const) {
      figures[`${at}PeakHeapMB`] = +(peak[at].heap / MB).toFixed(1);
      figures[`${at}PeakDomNodes`] = peak[at].nodes;
      figures[`${at}PeakRendererRssMB`] = +(peak[at].rendererRss / MB).toFixed(1);
      figures[`${at}LongestTaskMs`] = Math.round(lag[at].longest);
      figures[`${at}LongTasks`] = lag[at].count;
      figures[`${at}LongTaskTotalMs`] = Math.round(lag[at].total);
      figures[`${at}MaxTimerLagMs`] = Math.round(lag[at].max);
    }
    // VmHWM: the most each renderer ever held resident, including between samples.
    figures.rendererHighWaterMB = +(Math.max(0, ...renderers.map((p) => p.peakRssBytes)) / MB).toFixed(1);
    figures.serverCpuMsPerFile = +(serverCpuMs / folder.files).toFixed(2);
    expect(b.errors).toEqual([]);
  });
});

/** The server writes its profile when it exits (`--cpu-prof`): print where its CPU went. */
async function printServerProfile(dir: string): Promise<void> {
  const names = (await readdir(dir).catch(() => [])).filter((n) => n.endsWith('.cpuprofile'));
  for (const name of names) {
    const text = await readFile(path.join(dir, name), 'utf8');
    await mkdir(SCREENSHOTS, { recursive: true });
    await writeFile(path.join(SCREENSHOTS, `upload-bench-server-${name}`), text);
    console.log('server, self time (ms)', topSelfTime(JSON.parse(text) as CpuProfile));
  }
}
