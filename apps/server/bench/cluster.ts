/**
 * Scale-out throughput through haproxy (issue 18): the same workload against 1 and then 3 server
 * processes on one PostgreSQL database (a private cluster) and one s3rver bucket, printed side by
 * side:
 *   - study/list at concurrency 16 for a fixed time: requests/s and p95 latency;
 *   - C-STORE of small instances by dcmtk's storescu over 4 concurrent associations through
 *     haproxy's TCP frontend: instances/s.
 * Needs the built server (the npm script builds it) and haproxy. Everything runs on this machine,
 * so the processes share its cores with PostgreSQL, s3rver, haproxy and the clients.
 *
 *   npm run bench:cluster [-- --seconds 15 --instances 600 --studies 200]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildInstance, newUid } from '../src/dicom/index.js';
import { ClusterNode, Haproxy } from '../test/support/cluster.js';
import { startPgCluster } from '../test/support/pg-cluster.js';
import { startTestS3 } from '../test/support/s3-server.js';
import { DEMO_PASSWORD } from '../test/support/test-server.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '15' },
    instances: { type: 'string', default: '600' },
    studies: { type: 'string', default: '200' },
  },
});
const SECONDS = Number(args.seconds);
const INSTANCES = Number(args.instances);
const CONCURRENCY = 16;
const ASSOCIATIONS = 4;

interface Figures {
  listPerSecond: number;
  listP95Ms: number;
  listErrors: number;
  cstorePerSecond: number;
  cstoreFailed: number;
}

function writeInstances(dir: string): string[] {
  fs.mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  let study = newUid();
  for (let i = 0; i < INSTANCES; i++) {
    if (i % 20 === 0) study = newUid();
    const file = path.join(dir, `${String(i).padStart(5, '0')}.dcm`);
    fs.writeFileSync(
      file,
      buildInstance({
        patientName: 'BENCH^CLUSTER',
        patientId: `BENCH-${Math.floor(i / 20)}`,
        patientSex: 'O',
        patientBirthDate: '19700101',
        studyInstanceUid: study,
        studyDate: '20260101',
        studyTime: '120000',
        studyDescription: 'cluster bench',
        accessionNumber: 'BENCH',
        referringPhysician: '',
        institutionName: 'Bench',
        seriesDescription: 'bench',
        modality: 'CT',
        bodyPart: 'HEAD',
        seriesInstanceUid: `${study}.1`,
        seriesNumber: 1,
        sopInstanceUid: newUid(),
        instanceNumber: i + 1,
        rows: 100,
        columns: 136,
      }),
    );
    files.push(file);
  }
  return files;
}

function storescu(files: string[], port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'storescu',
      ['-aet', 'DEMO_GATEWAY', '-aec', 'INBOX', '127.0.0.1', String(port), ...files],
      {
        env: { ...process.env, TCP_NODELAY: '1' },
        stdio: 'ignore',
      },
    );
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? -1));
  });
}

async function run(
  processes: number,
  work: string,
  env: Record<string, string>,
  files: string[],
): Promise<Figures> {
  const dir = path.join(work, `n${processes}`);
  const nodes: ClusterNode[] = [];
  for (let i = 0; i < processes; i++) nodes.push(await ClusterNode.create(`node-${i + 1}`, dir, env));
  await Promise.all(nodes.map((n) => n.start()));
  const proxy = await Haproxy.start(dir, nodes);
  try {
    const login = await fetch(`${proxy.url}/api/v3/session/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ login: 'clinician@demo.local', password: DEMO_PASSWORD }),
    });
    const { sid } = (await login.json()) as { sid: string };
    const latencies: number[] = [];
    let errors = 0;
    const until = Date.now() + SECONDS * 1000;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (Date.now() < until) {
          const t = performance.now();
          const answer = await fetch(`${proxy.url}/api/v3/study/list`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ sid }),
          });
          await answer.arrayBuffer();
          if (answer.status === 200) latencies.push(performance.now() - t);
          else errors++;
        }
      }),
    );
    const listSeconds = (Date.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const storeStarted = Date.now();
    const codes = await Promise.all(
      Array.from({ length: ASSOCIATIONS }, (_, a) =>
        storescu(
          files.filter((_, i) => i % ASSOCIATIONS === a),
          proxy.dicomPort,
        ),
      ),
    );
    const storeSeconds = (Date.now() - storeStarted) / 1000;
    return {
      listPerSecond: latencies.length / listSeconds,
      listP95Ms: latencies[Math.floor(latencies.length * 0.95)] ?? NaN,
      listErrors: errors,
      cstorePerSecond: files.length / storeSeconds,
      cstoreFailed: codes.filter((c) => c !== 0).length,
    };
  } finally {
    await proxy.stop();
    for (const node of nodes) await node.stop();
  }
}

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-bench-cluster-'));
  const cluster = await startPgCluster();
  const s3 = await startTestS3();
  try {
    const files = writeInstances(path.join(work, 'files'));
    const results: Record<number, Figures> = {};
    for (const processes of [1, 3]) {
      const database = `bench_${processes}`;
      const client = new pg.Client({ connectionString: cluster.url('postgres') });
      await client.connect();
      await client.query(`create database ${database}`);
      await client.end();
      results[processes] = await run(
        processes,
        work,
        {
          ...s3.env,
          BLOB_STORE: `s3://inbox-blobs/${database}`,
          DATABASE_URL: cluster.url(database),
          SEED_STUDIES: args.studies,
        },
        files,
      );
    }
    const [one, three] = [results[1]!, results[3]!];
    const row = (name: string, a: number, b: number, digits = 0) =>
      `${name.padEnd(36)}${a.toFixed(digits).padStart(10)}${b.toFixed(digits).padStart(12)}`;
    console.log(
      `\n${os.cpus().length} cores; ${args.studies} seeded studies; ${INSTANCES} C-STORE instances of ~28 KB`,
    );
    console.log(`${''.padEnd(36)}${'1 process'.padStart(10)}${'3 processes'.padStart(12)}`);
    console.log(
      row(`study/list req/s (concurrency ${CONCURRENCY})`, one.listPerSecond, three.listPerSecond, 1),
    );
    console.log(row('study/list p95 ms', one.listP95Ms, three.listP95Ms));
    console.log(row('study/list errors', one.listErrors, three.listErrors));
    console.log(
      row(`C-STORE instances/s (${ASSOCIATIONS} assoc.)`, one.cstorePerSecond, three.cstorePerSecond, 1),
    );
    console.log(row('storescu runs failed', one.cstoreFailed, three.cstoreFailed));
  } finally {
    await s3.stop();
    cluster.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
