/**
 * The fuzz tier (issue 14, "keep it fixed"): seeded mutations of the pydicom test files and of our
 * own generated files (deflated ones and bombs among them) go in by upload, STOW-RS, C-STORE and
 * request link, whatever was stored is read back (metadata, rendered, thumbnail, frame), and
 * malformed PDUs hit the DICOM listener. Nothing may answer 5xx (or a C-STORE server failure), the
 * event loop may not stall for a second, memory stays under a cap, refused input leaves nothing
 * behind, and the server still stores a valid file at the end.
 *
 * Bounded in `npm test` (FUZZ_CASES files, FUZZ_PDU_CASES PDUs per database); `npm run fuzz` runs
 * many more with a fresh seed. A failure names its seed and case: FUZZ_SEED=<seed> reproduces it.
 */
import fs from 'node:fs';
import net from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDicomHeader } from '../../src/dicom/index.js';
import { PYDICOM_DIR } from '../dicom/support.js';
import { fuzzFile, fuzzPdu, pydicomCorpus } from '../support/fuzz-cases.js';
import { ingestState } from '../support/ingest-state.js';
import { INGEST_WAYS, IngestWays } from '../support/ingest-ways.js';
import type { Delivery } from '../support/ingest-ways.js';
import { withSopInstanceUid } from '../support/mutate.js';
import type { Dialect, TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { Prng } from '../../src/dicom/prng.js';

const SEED = Number(process.env['FUZZ_SEED'] ?? 20261124);
const CASES = Number(process.env['FUZZ_CASES'] ?? 60);
const PDU_CASES = Number(process.env['FUZZ_PDU_CASES'] ?? 30);
const DIALECTS_RUN = (process.env['FUZZ_DIALECTS']?.split(',') as Dialect[] | undefined) ?? DIALECTS;
/** Resident memory of this process (test runner and server) may not pass this. */
const RSS_CAP_BYTES = 2 * 1024 * 1024 * 1024;
const MAX_EVENT_LOOP_DELAY_MS = 1000;
/** C-STORE answers a sender may get for fuzzed input: success, or "cannot understand". */
const CSTORE_OK = new Set([0x0000, 0xc000]);
/** STOW-RS Failure Reasons for refused input: cannot understand, out of resources (a limit). */
const STOW_REFUSALS = new Set([0xc000, 0xa700]);

const corpus = pydicomCorpus();

describe.each(DIALECTS_RUN)('fuzz tier on %s', (dialect) => {
  let server: TestServer;
  let ways: IngestWays;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  /** Reset for every case: the slowest cases are named in the report. */
  const caseDelay = monitorEventLoopDelay({ resolution: 10 });
  const slowest: { where: string; ms: number }[] = [];
  let peakRss = 0;
  let sampler: NodeJS.Timeout | undefined;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    ways = await IngestWays.open(server);
    peakRss = process.memoryUsage().rss;
    sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
    delay.enable();
    caseDelay.enable();
  });
  afterAll(async () => {
    clearInterval(sampler);
    delay.disable();
    caseDelay.disable();
    await server?.stop();
  });

  /** A delivery the server handled properly: stored, or refused with a client-side answer. */
  function expectHandled(delivery: Delivery, where: string): void {
    if (delivery.way === 'cstore') {
      if (!delivery.aborted)
        expect(CSTORE_OK.has(delivery.status), `${where}: DIMSE ${delivery.status}`).toBe(true);
    } else if (delivery.way === 'stow') {
      expect(delivery.status, where).toBeLessThan(500);
      if (delivery.failureReason !== undefined)
        expect(STOW_REFUSALS.has(delivery.failureReason), `${where}: reason ${delivery.failureReason}`).toBe(
          true,
        );
    } else {
      expect(delivery.status, `${where}: ${delivery.errorType ?? ''}`).toBeLessThan(500);
    }
  }

  async function readBack(bytes: Buffer, where: string): Promise<void> {
    let uids;
    try {
      uids = parseDicomHeader(bytes);
    } catch {
      return; // stored under what the server read; nothing to address it by here
    }
    const base = `${server.url}/dicomweb/studies/${encodeURIComponent(uids.studyInstanceUid)}/series/${encodeURIComponent(uids.seriesInstanceUid)}/instances/${encodeURIComponent(uids.sopInstanceUid)}`;
    for (const suffix of ['/metadata', '/rendered', '/thumbnail', '/frames/1']) {
      const response = await fetch(`${base}${suffix}`, { headers: { authorization: `Bearer ${ways.sid}` } });
      await response.arrayBuffer();
      expect(response.status, `${where}: GET …${suffix}`).toBeLessThan(500);
    }
  }

  it(
    `sends ${CASES} fuzzed files every way in, reads back what was stored, and changes nothing for what was refused`,
    { timeout: 30_000 + CASES * 1000 },
    async () => {
      const prng = new Prng(SEED);
      let stored = 0;
      for (let i = 0; i < CASES; i++) {
        const caseSeed = SEED + i;
        const file = fuzzFile(corpus, caseSeed);
        const way = prng.pick(INGEST_WAYS);
        const where = `seed ${SEED} case ${i} (${file.label}, ${file.bytes.length} bytes, by ${way})`;
        const before = await ingestState(server);
        caseDelay.reset();
        const delivery = await ways.send(way, file.bytes);
        expectHandled(delivery, where);
        const after = await ingestState(server);
        expect(after.temps, `${where}: temp files left`).toBe(0);
        if (delivery.stored) {
          stored++;
          await readBack(file.bytes, where);
        } else {
          expect(after, `${where}: refused, yet something changed`).toEqual(before);
        }
        slowest.push({ where, ms: caseDelay.max / 1e6 });
        slowest.sort((a, b) => b.ms - a.ms).splice(3);
      }
      console.log(`fuzz ${dialect}: ${CASES} files, ${stored} stored, seed ${SEED}`);
    },
  );

  it(`survives ${PDU_CASES} malformed PDUs`, async () => {
    for (let i = 0; i < PDU_CASES; i++) {
      const pdu = fuzzPdu(SEED + i);
      await new Promise<void>((resolve) => {
        const socket = net.connect(server.dicomPort, '127.0.0.1', () => socket.end(pdu.bytes));
        socket.on('data', () => undefined);
        socket.on('error', () => resolve());
        socket.on('close', () => resolve());
        // A listener that keeps a half-open association is not a failure here (its ARTIM timer ends it).
        socket.setTimeout(2000, () => socket.destroy());
      });
    }
    // The listener still stores a valid instance, and HTTP still answers.
    const valid = withSopInstanceUid(
      fs.readFileSync(`${PYDICOM_DIR}/test_files/CT_small.dcm`),
      SEED % 100000,
    );
    const delivery = await ways.send('cstore', valid);
    expect(delivery.status).toBe(0);
    expect((await ways.send('upload', valid)).status).toBe(202);
  });

  it('kept the event loop turning and memory under the cap', () => {
    const maxMs = delay.max / 1e6;
    console.log(
      `fuzz ${dialect}: event-loop delay p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms, max ${maxMs.toFixed(1)} ms; ` +
        `peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB; slowest cases: ` +
        slowest.map((c) => `${c.where} ${c.ms.toFixed(0)} ms`).join('; '),
    );
    expect(maxMs).toBeLessThan(MAX_EVENT_LOOP_DELAY_MS);
    expect(peakRss).toBeLessThan(RSS_CAP_BYTES);
  });
});
