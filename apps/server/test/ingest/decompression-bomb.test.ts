/**
 * A deflated dataset that inflates to 1 GiB from 1 MB (issue 14, item 1) is refused by every way in
 * (upload, STOW-RS, C-STORE, request link) with a clear answer, leaves nothing behind, and while
 * three of them arrive at once the event loop keeps turning and a valid image still renders.
 * The server runs in this process, so the event-loop delay measured here is the server's.
 */
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInstance, parseDicomHeader } from '../../src/dicom/index.js';
import { baseSpec, deflateBomb, deflated, PYDICOM_DIR } from '../dicom/support.js';
import { ingestState } from '../support/ingest-state.js';
import { INGEST_WAYS, IngestWays } from '../support/ingest-ways.js';
import type { Delivery, IngestWay } from '../support/ingest-ways.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

const GiB = 1024 * 1024 * 1024;
const instance = buildInstance(baseSpec({ rows: 2, columns: 2, sopInstanceUid: '2.25.1001.1.77' }));
const bomb = deflateBomb(instance, GiB);
const ct = fs.readFileSync(`${PYDICOM_DIR}/test_files/CT_small.dcm`);
const ctUids = parseDicomHeader(ct);

/** The answer each way gives a file past the inflate ceiling. */
function expectRefused(delivery: Delivery): void {
  expect(delivery.stored, JSON.stringify(delivery)).toBe(false);
  if (delivery.way === 'upload' || delivery.way === 'link') {
    expect(delivery).toMatchObject({ status: 413, errorType: 'DECOMPRESSION_LIMIT' });
  } else if (delivery.way === 'stow') {
    expect(delivery).toMatchObject({ status: 409, failureReason: 0xa700 });
  } else {
    // Refused, not out of resources: the sender should not send it again.
    expect(delivery).toMatchObject({ status: 0xc000 });
  }
}

describe.each(DIALECTS)('deflate bombs on %s', (dialect) => {
  let server: TestServer;
  let ways: IngestWays;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    ways = await IngestWays.open(server);
    expect((await ways.send('upload', ct)).status).toBe(202);
    expect((await renderCt()).status).toBe(200); // codecs and caches warm before the measurement
  });
  afterAll(() => server?.stop());

  async function renderCt(): Promise<{ status: number; ms: number }> {
    const started = performance.now();
    const response = await fetch(
      `${server.url}/dicomweb/studies/${ctUids.studyInstanceUid}/series/${ctUids.seriesInstanceUid}` +
        `/instances/${ctUids.sopInstanceUid}/rendered`,
      { headers: { authorization: `Bearer ${ways.sid}`, accept: 'image/png' } },
    );
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - started };
  }

  it.each(INGEST_WAYS)(
    'refuses three 1 GiB bombs sent at once by %s, stores nothing, and keeps answering',
    async (way: IngestWay) => {
      const before = await ingestState(server);
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      let attacking = true;
      const attack = Promise.all([1, 2, 3].map(() => ways.send(way, bomb))).finally(() => {
        attacking = false;
      });
      const renders: { status: number; ms: number }[] = [];
      while (attacking || renders.length === 0) {
        renders.push(await renderCt());
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const deliveries = await attack;
      delay.disable();

      for (const delivery of deliveries) expectRefused(delivery);
      expect(renders.every((r) => r.status === 200)).toBe(true);
      const maxDelayMs = delay.max / 1e6;
      console.log(
        `${dialect} ${way}: event-loop delay p50 ${(delay.percentile(50) / 1e6).toFixed(1)} ms, ` +
          `p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms, max ${maxDelayMs.toFixed(1)} ms; ` +
          `${renders.length} renders during the attack, slowest ${Math.max(...renders.map((r) => r.ms)).toFixed(0)} ms`,
      );
      expect(maxDelayMs).toBeLessThan(1000);
      expect(await ingestState(server)).toEqual(before);
    },
  );

  it('still stores a deflated instance within the ceiling (12 MiB from 12 KB)', async () => {
    const fine = deflateBomb(
      buildInstance(baseSpec({ rows: 2, columns: 2, sopInstanceUid: '2.25.1001.1.78' })),
      12 * 1024 * 1024,
    );
    const small = deflated(buildInstance(baseSpec({ sopInstanceUid: '2.25.1001.1.79' })));
    for (const way of INGEST_WAYS) {
      const before = await ingestState(server);
      for (const file of [fine, small]) {
        const delivery = await ways.send(way, file);
        expect(delivery.status === 202 || delivery.status === 200 || delivery.status === 0).toBe(true);
      }
      // The first way stores both; the others find them stored already.
      if (way === 'upload') expect((await ingestState(server)).instances).toBe(before.instances + 2);
    }
  });
});
