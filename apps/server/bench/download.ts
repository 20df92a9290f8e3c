/**
 * ZIP and ISO download throughput and memory: a fresh server (demo world) gets one study of N CT-size
 * instances (512×512 16-bit, about 0.5 MB each) ingested into Emergency, then curl downloads the
 * study's ZIP and then its ISO 9660 image over HTTP to /dev/null while this process (the server) samples its own RSS.
 * Prints MB/s (10^6 bytes of archive per second, curl's wall time) and the server's peak RSS
 * during the download against its RSS just before.
 *
 *   npm run bench:download [-- --instances 500 --rounds 3 --database-url postgres://…]
 *
 * For the "2 GB download" figure: --instances 4000 (about 2.1 GB of files).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { buildInstance, newUid } from '../src/dicom/index.js';
import { startServer } from '../src/main.js';

const run = promisify(execFile);
const { values: args } = parseArgs({
  options: {
    instances: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '3' },
    'database-url': { type: 'string' },
  },
});
const count = Number(args.instances);
const rounds = Number(args.rounds);
const PASSWORD = 'Bench-pass-2026';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-download-'));
const server = await startServer(
  loadConfig({
    DATA_DIR: path.join(root, 'data'),
    DATABASE_URL: args['database-url'],
    HOST: '127.0.0.1',
    PORT: '0',
    DICOM_PORT: '0',
    SEED_STUDIES: '0',
    DEMO_PASSWORD: PASSWORD,
    LOG_LEVEL: 'warn',
  }),
  () => undefined,
);

try {
  const { ctx } = server;
  const group = await ctx.db.kysely
    .selectFrom('groups')
    .select(['namespace_id', 'account_id'])
    .where('name', '=', 'Emergency')
    .executeTakeFirstOrThrow();

  // Ingest straight through the pipeline (no HTTP): this benchmark is about the download.
  const studyUid = newUid();
  const perSeries = 100;
  let seriesUid = '';
  let bytes = 0;
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    if (i % perSeries === 0) seriesUid = newUid();
    const file = buildInstance({
      patientName: 'BENCH^DOWNLOAD',
      patientId: 'BENCH-DL',
      patientSex: 'O',
      patientBirthDate: '19700101',
      studyInstanceUid: studyUid,
      studyDate: '20250101',
      studyTime: '120000',
      studyDescription: 'DOWNLOAD BENCH',
      accessionNumber: 'BENCHDL',
      referringPhysician: '',
      institutionName: 'BENCH',
      seriesInstanceUid: seriesUid,
      seriesNumber: Math.floor(i / perSeries) + 1,
      seriesDescription: 'AXIAL',
      modality: 'CT',
      bodyPart: 'HEAD',
      sopInstanceUid: newUid(),
      instanceNumber: (i % perSeries) + 1,
      rows: 512,
      columns: 512,
    });
    bytes += file.byteLength;
    const temp = await ctx.services.blobs.writeTemp(file);
    await ctx.services.ingest.ingestTemp(
      temp,
      { accountId: group.account_id, namespaceId: group.namespace_id },
      { kind: 'bench', userId: null },
    );
  }
  console.log(
    `ingested ${count} instances, ${(bytes / 1e6).toFixed(0)} MB in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const sid = await login(server.url);
  const rates: Record<string, number[]> = { ZIP: [], ISO: [] };
  for (const bundle of ['dicom', 'iso'] as const) {
    const url = `${server.url}/api/v3/storage/study/${group.namespace_id}/${studyUid}/download?bundle=${bundle}&sid=${sid}`;
    for (let round = 1; round <= rounds; round++) {
      global.gc?.();
      const rssBefore = process.memoryUsage().rss;
      let peak = rssBefore;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 20);
      const { stdout } = await run('curl', [
        '-sf',
        '-o',
        '/dev/null',
        '-w',
        '%{size_download} %{time_total}',
        url,
      ]);
      clearInterval(sampler);
      const [size, seconds] = stdout.trim().split(' ').map(Number) as [number, number];
      rates[bundle === 'iso' ? 'ISO' : 'ZIP']!.push(size / 1e6 / seconds);
      console.log(
        `${bundle === 'iso' ? 'ISO' : 'ZIP'} round ${round}: ${(size / 1e6).toFixed(0)} MB in ${seconds.toFixed(2)} s = ${(size / 1e6 / seconds).toFixed(0)} MB/s; ` +
          `server RSS ${mb(rssBefore)} MB before, peak ${mb(peak)} MB (+${mb(peak - rssBefore)} MB)`,
      );
    }
  }
  for (const [name, values] of Object.entries(rates)) {
    const sorted = [...values].sort((a, b) => a - b);
    console.log(`${name} median of ${sorted.length}: ${sorted[sorted.length >> 1]!.toFixed(0)} MB/s`);
  }
} finally {
  await server.stop();
  fs.rmSync(root, { recursive: true, force: true });
}

function mb(n: number): string {
  return (n / 1048576).toFixed(0);
}

async function login(base: string): Promise<string> {
  const response = await fetch(`${base}/api/v3/session/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: 'clinician@demo.local', password: PASSWORD }),
  });
  const body = (await response.json()) as { sid?: string };
  if (!body.sid) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return body.sid;
}
