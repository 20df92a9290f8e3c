import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, SCREENSHOTS, type BrowserSession } from '../support/browser';
import { apiLogin } from '../support/actions';
import { REPO_ROOT, startServer, type RunningServer } from '../support/server';

const SLICES = 300;
const STEPS = 40;
const figures: Record<string, number | string> = {};

type BuildInstance = (spec: Record<string, unknown>) => Uint8Array<ArrayBuffer>;

/** 300 slices of 512×512 16-bit CT (about 0.5 MB each), written by the server's own generator. */
async function uploadCt(baseUrl: string, sid: string, namespace: string): Promise<string> {
  const dicom = (await import(
    pathToFileURL(path.join(REPO_ROOT, 'apps/server/dist/dicom/index.js')).href
  )) as {
    buildInstance: BuildInstance;
    newUid: () => string;
  };
  const studyUid = dicom.newUid();
  const seriesUid = `${studyUid}.1`;
  let bytes = 0;
  for (let n = 1; n <= SLICES; n++) {
    const file = dicom.buildInstance({
      patientName: 'BENCH^VIEWER',
      patientId: 'BENCH-VIEWER',
      patientSex: 'O',
      patientBirthDate: '19700101',
      studyInstanceUid: studyUid,
      studyDate: '20260101',
      studyTime: '101500',
      studyDescription: 'Viewer benchmark CT',
      accessionNumber: 'BENCHV',
      referringPhysician: 'DOE^JANE',
      institutionName: 'Bench',
      seriesInstanceUid: seriesUid,
      seriesNumber: 1,
      seriesDescription: 'AXIAL 1mm',
      modality: 'CT',
      bodyPart: 'CHEST',
      sopInstanceUid: `${seriesUid}.${n}`,
      instanceNumber: n,
      rows: 512,
      columns: 512,
    });
    bytes += file.length;
    const res = await fetch(`${baseUrl}/api/v3/storage/namespace/${namespace}/image?sid=${sid}`, {
      method: 'POST',
      headers: { 'content-type': 'application/dicom' },
      body: file,
    });
    if (res.status !== 202) throw new Error(`upload of slice ${n} answered ${res.status}`);
  }
  figures.sliceKB = Math.round(bytes / SLICES / 1024);
  return studyUid;
}

// A benchmark, not a test: `npm run bench:viewer` prints the figures (target: first image of a
// 300-slice CT under 1 s; scrolling without fetching the whole study).
describe('viewer performance figures', () => {
  let server: RunningServer;
  let b: BrowserSession;
  let sid = '';
  let study = { uuid: '', storage: '', uid: '' };

  beforeAll(async () => {
    server = await startServer({ SEED_STUDIES: '4' });
    sid = await apiLogin(server.baseUrl, 'clinician@demo.local');
    const groups = (await (await fetch(`${server.baseUrl}/api/v3/group/list?sid=${sid}`)).json()) as {
      groups: { name: string; namespace_id: string }[];
    };
    const namespace = groups.groups.find((g) => g.name === 'Emergency')!.namespace_id;
    const started = Date.now();
    const uid = await uploadCt(server.baseUrl, sid, namespace);
    figures.ingestSeconds = Math.round((Date.now() - started) / 100) / 10;
    const listed = (await (
      await fetch(`${server.baseUrl}/api/v3/study/list?sid=${sid}&filter.study_uid.equals=${uid}`)
    ).json()) as { studies: { uuid: string; storage_namespace: string }[] };
    study = { uuid: listed.studies[0]!.uuid, storage: listed.studies[0]!.storage_namespace, uid };
    b = await openBrowser(server.baseUrl);
    // The host page plays the inbox's part: same origin, answers the viewer's token requests.
    await b.page.goto('/404-bench-host');
  }, 600_000);
  afterAll(async () => {
    await b?.close();
    await server?.stop();
    await mkdir(SCREENSHOTS, { recursive: true });
    await writeFile(path.join(SCREENSHOTS, 'viewer-bench.json'), `${JSON.stringify(figures, null, 2)}\n`);
    console.log('viewer bench', figures);
  });

  /** Opens the viewer in an iframe as the Viewer tab does; answers ms from iframe creation to the first image. */
  async function openViewer(): Promise<number> {
    return b.page.evaluate(
      async ({ sid, study }) => {
        document.querySelector('iframe')?.remove();
        const started = performance.now();
        const token = fetch('/api/v3/study/viewer/token', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ sid, uuid: study.uuid }).toString(),
        }).then((r) => r.json() as Promise<{ token: string; expires: number }>);
        const frame = document.createElement('iframe');
        frame.style.cssText = 'position:fixed;inset:0;width:100vw;height:100vh;border:0';
        window.onmessage = async (event: MessageEvent) => {
          if (event.origin !== location.origin || event.source !== frame.contentWindow) return;
          if ((event.data as { action?: string }).action !== 'viewer-token-request') return;
          const { token: value, expires } = await token;
          frame.contentWindow!.postMessage(
            { action: 'viewer-token', token: value, expires },
            location.origin,
          );
        };
        frame.src = `/viewer/#study/${study.storage}/${study.uid}/${study.storage}`;
        document.body.append(frame);
        await new Promise<void>((resolve) => {
          const poll = () =>
            frame.contentDocument?.body?.dataset['ready'] === '1' ? resolve() : requestAnimationFrame(poll);
          poll();
        });
        return performance.now() - started;
      },
      { sid, study },
    );
  }

  it('times the first image of a 300-slice CT, cold and with the viewer code cached', async () => {
    figures.firstImageColdMs = Math.round(await openViewer());
    figures.firstImageWarmMs = Math.round(await openViewer());
    figures.firstImageWarm2Ms = Math.round(await openViewer());
    const frame = b.page.frames().find((f) => f.url().includes('/viewer/'))!;
    figures.instancesFetchedAtFirstImage = Number(
      await frame.evaluate(() => document.body.dataset['instancesFetched']),
    );
    expect(figures.firstImageColdMs).toBeGreaterThan(0);
  });

  it('times scroll steps (arrow key, next slice shown) and counts what was fetched', async () => {
    const frame = b.page.frames().find((f) => f.url().includes('/viewer/'))!;
    // Give the prefetch around slice 1 a moment, as a reader looking at the first image would.
    await b.page.waitForTimeout(500);
    const times = await frame.evaluate(async (steps) => {
      const shown = (i: number) =>
        new Promise<void>((resolve) => {
          const poll = () =>
            document.body.dataset['sliceIndex'] === String(i) ? resolve() : requestAnimationFrame(poll);
          poll();
        });
      const result: number[] = [];
      for (let i = 1; i <= steps; i++) {
        const started = performance.now();
        window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown' }));
        await shown(i);
        result.push(performance.now() - started);
      }
      return result;
    }, STEPS);
    const sorted = [...times].sort((x, y) => x - y);
    figures.scrollSteps = STEPS;
    figures.scrollStepMedianMs = Math.round(sorted[Math.floor(sorted.length / 2)]!);
    figures.scrollStepP90Ms = Math.round(sorted[Math.floor(sorted.length * 0.9)]!);
    figures.scrollStepMaxMs = Math.round(sorted[sorted.length - 1]!);
    const fetched = Number(await frame.evaluate(() => document.body.dataset['instancesFetched']));
    figures.instancesFetchedAfterScroll = fetched;
    figures.instancesInSeries = SLICES;
    figures.wholeStudyFetched = fetched >= SLICES ? 'yes' : 'no';
    expect(fetched).toBeLessThan(SLICES);
  });
});
