/**
 * Scale-out through haproxy (issues 18 and 34): the same workload against 1 and then 3 server
 * processes on one PostgreSQL database (a private cluster) and one s3rver bucket, with the CPU each
 * part spends per operation:
 *   - study/list at concurrency 16 for a fixed time: requests/s, p95 latency, and CPU ms per
 *     request of each server process, of PostgreSQL (the postmaster and all its backends) and of
 *     haproxy;
 *   - C-STORE of small instances by dcmtk's storescu over 4 concurrent associations through
 *     haproxy's TCP frontend: instances/s and the same CPU per stored instance.
 * CPU is read from /proc (utime + stime, exited children included) before and after each phase,
 * so it counts only what each part spent meanwhile. Before the timed phases every process is warmed
 * as one serving for hours is (V8 has optimised its code): study/list until each process has
 * answered `--warmup` requests (500; at most 60 s), then as many instances of other studies as the
 * timed phase sends, over the same associations. Each phase starts once the processes have
 * settled. What the parts spend idle (haproxy's health checks, job polls) is measured too, and
 * `>idle` is the total per operation less that: the part of the cost that grows with the work. How
 * the requests and instances spread over the processes is read from each one's /metrics. The last lines give 3 processes' total CPU per operation over 1's:
 * what more processes cost, which, unlike throughput, does not swing with the machine's load.
 * `--waits` samples pg_stat_activity every 50 ms during the C-STORE phase (its own queries then add
 * to PostgreSQL's CPU) and prints where the index transactions wait.
 *
 * Needs the built server (`npm run build`) and haproxy. Everything runs on this machine, so the
 * processes share its cores with PostgreSQL, s3rver (in this process), haproxy and the clients.
 *
 *   npm run bench:cluster [-- --seconds 15 --instances 600 --studies 200 --warmup 500 --processes 1,3 --associations 4 --waits]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildInstance, newUid } from '../src/dicom/index.js';
import { ClusterNode, Haproxy } from '../test/support/cluster.js';
import { startPgCluster, type PgCluster } from '../test/support/pg-cluster.js';
import { startTestS3 } from '../test/support/s3-server.js';
import { DEMO_PASSWORD } from '../test/support/test-server.js';
import { treeCpuMs } from './proc-cpu.js';

const CONCURRENCY = 16;

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '15' },
    instances: { type: 'string', default: '600' },
    studies: { type: 'string', default: '200' },
    processes: { type: 'string', default: '1,3' },
    warmup: { type: 'string', default: '500' },
    'warmup-instances': { type: 'string' },
    waits: { type: 'boolean', default: false },
    associations: { type: 'string', default: '4' },
  },
});
const SECONDS = Number(args.seconds);
/** Concurrent storescu associations, spread by haproxy over the processes. */
const ASSOCIATIONS = Number(args.associations);
const INSTANCES = Number(args.instances);
const COUNTS = args.processes.split(',').map(Number);
const WARMUP_REQUESTS = Number(args.warmup);
/** Instances sent (to other studies) before the timed C-STORE phase, so every process runs warm code. */
const WARMUP_INSTANCES = Number(args['warmup-instances'] ?? INSTANCES);
const load = () => os.loadavg()[0]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU ms of each part, read at one moment. */
type Reading = Record<string, number>;

interface Phase {
  operations: number;
  seconds: number;
  /** CPU ms per operation of each part (node-1…, servers, postgres, haproxy, total, …). */
  cpuPerOp: Reading;
  /** The total less what the same parts spend idle over as long (health checks, job polls). */
  beyondIdlePerOp: number;
  /** Operations each process served (from its /metrics). */
  spread: number[];
  load: number;
}

interface Figures {
  list: Phase & { p95Ms: number; errors: Record<string, number> };
  store: Phase & { failed: number; associationSeconds: number[]; waits?: string[] };
  idle: Reading;
  settledSeconds: number;
}

function writeInstances(dir: string, count: number): string[] {
  fs.mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  let study = newUid();
  for (let i = 0; i < count; i++) {
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

/** One storescu association sending `files`: its exit code and wall time. */
function storescu(files: string[], port: number): Promise<{ code: number; seconds: number }> {
  const started = performance.now();
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
    child.on('close', (code) => resolve({ code: code ?? -1, seconds: (performance.now() - started) / 1000 }));
  });
}

/** This process's own stat fields: cutime + cstime, the CPU of the children it has reaped (storescu). */
function reapedChildrenMs(): number {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
}

/** Context switches (voluntary + involuntary) of all a process's threads so far. */
function switchesOf(pid: number): number {
  let sum = 0;
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const status = fs.readFileSync(`/proc/${pid}/task/${task}/status`, 'utf8');
      for (const m of status.matchAll(/^(?:non)?voluntary_ctxt_switches:\s+(\d+)$/gm)) sum += Number(m[1]);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return sum;
}

function read(nodes: ClusterNode[], proxy: Haproxy, cluster: PgCluster): Reading {
  const reading: Reading = {};
  for (const node of nodes) reading[node.id] = node.child?.pid ? treeCpuMs(node.child.pid) : 0;
  reading.postgres = treeCpuMs(cluster.postmasterPid());
  reading.haproxy = proxy.pid ? treeCpuMs(proxy.pid) : 0;
  const own = process.cpuUsage();
  reading.bench = (own.user + own.system) / 1000;
  reading.storescu = reapedChildrenMs();
  for (const node of nodes) reading[`${node.id} switches`] = node.child?.pid ? switchesOf(node.child.pid) : 0;
  return reading;
}

/** What each part spent from `before` to `after`, divided by `per`, with the sums the tables show. */
function spent(before: Reading, after: Reading, nodes: ClusterNode[], per: number): Reading {
  const out: Reading = {};
  for (const key of Object.keys(after)) out[key] = (after[key]! - (before[key] ?? 0)) / per;
  out.servers = nodes.reduce((sum, n) => sum + out[n.id]!, 0);
  out.total = out.servers + out.postgres! + out.haproxy!;
  return out;
}

/** Total CPU ms per operation above what the parts spend idle (ms/s in `idle`) over `seconds`. */
function beyondIdle(used: Reading, idle: Reading, seconds: number, operations: number): number {
  return (used.total! - idle.total! * seconds) / Math.max(1, operations);
}

/**
 * Waits until the server processes and PostgreSQL together spend under 10% of one core over a
 * second (their start-up work, such as the demo seed's jobs, done), at most 60 s: the seconds it took.
 */
async function settle(nodes: ClusterNode[], proxy: Haproxy, cluster: PgCluster): Promise<number> {
  const started = performance.now();
  for (;;) {
    const before = read(nodes, proxy, cluster);
    await sleep(1000);
    const used = spent(before, read(nodes, proxy, cluster), nodes, 1);
    const seconds = (performance.now() - started) / 1000;
    if (used.servers! + used.postgres! < 100 || seconds > 60) return seconds;
  }
}

/** The sum over each process's /metrics of the samples whose line starts with `prefix` and holds `has`. */
async function metricOf(node: ClusterNode, prefix: string, has: string): Promise<number> {
  const text = await (await fetch(`${node.url}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith(prefix) && line.includes(has))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

const listCount = (n: ClusterNode) =>
  metricOf(n, 'imaging_inbox_http_request_duration_seconds_count', 'study/list');
const storedCount = (n: ClusterNode) =>
  metricOf(n, 'imaging_inbox_ingest_instances_total', 'source="cstore"');

/** Samples pg_stat_activity of `database` until stopped: the commonest (state, wait, statement). */
function sampleWaits(url: string, database: string): () => Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  const counts = new Map<string, number>();
  let samples = 0;
  let stop = false;
  const sampling = (async () => {
    await client.connect();
    while (!stop) {
      const { rows } = await client.query<{ key: string }>(
        `select state || ' ' || coalesce(wait_event_type || ':' || wait_event, 'cpu') || ' ' ||
                regexp_replace(left(query, 60), '\\s+', ' ', 'g') as key
           from pg_stat_activity
          where datname = $1 and pid <> pg_backend_pid() and state <> 'idle'`,
        [database],
      );
      samples++;
      for (const { key } of rows) counts.set(key, (counts.get(key) ?? 0) + 1);
      await sleep(50);
    }
    await client.end();
  })();
  return async () => {
    stop = true;
    await sampling;
    return [...counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([key, n]) => `${(n / samples).toFixed(2).padStart(6)} backends  ${key}`);
  };
}

/** `files` over ASSOCIATIONS concurrent storescu associations through haproxy (instance i on i mod n). */
function sendOver(files: string[], proxy: Haproxy) {
  return Promise.all(
    Array.from({ length: ASSOCIATIONS }, (_, a) =>
      storescu(
        files.filter((_, i) => i % ASSOCIATIONS === a),
        proxy.dicomPort,
      ),
    ),
  );
}

async function listPhase(
  proxy: Haproxy,
  sid: string,
  seconds: number,
): Promise<{ ok: number; seconds: number; p95Ms: number; errors: Record<string, number> }> {
  const latencies: number[] = [];
  const errors: Record<string, number> = {};
  const until = Date.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < until) {
        const t = performance.now();
        const answer = await fetch(`${proxy.url}/api/v3/study/list`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ sid }),
        }).catch((error: unknown) => ({
          status: String(error),
          arrayBuffer: () => Promise.resolve(undefined),
        }));
        await answer.arrayBuffer();
        if (answer.status === 200) latencies.push(performance.now() - t);
        else errors[answer.status] = (errors[answer.status] ?? 0) + 1;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    ok: latencies.length,
    seconds: (performance.now() - started) / 1000,
    p95Ms: latencies[Math.floor(latencies.length * 0.95)] ?? NaN,
    errors,
  };
}

async function run(
  processes: number,
  work: string,
  env: Record<string, string>,
  files: string[],
  warmup: string[],
  cluster: PgCluster,
  database: string,
): Promise<Figures> {
  const dir = path.join(work, `n${processes}`);
  const nodes: ClusterNode[] = [];
  for (let i = 0; i < processes; i++) nodes.push(await ClusterNode.create(`node-${i + 1}`, dir, env));
  // One at a time: the first migrates and seeds, the others would only wait for its lock.
  for (const node of nodes) await node.start();
  const proxy = await Haproxy.start(dir, nodes);
  try {
    const login = await fetch(`${proxy.url}/api/v3/session/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ login: 'clinician@demo.local', password: DEMO_PASSWORD }),
    });
    const { sid } = (await login.json()) as { sid: string };
    // Warm: each process's code compiled by V8 and its pools filled, as in a process serving for
    // hours; then settled, so what the warm-up left running is not counted.
    for (let s = 0; s < 60; s += 5) {
      const served = await Promise.all(nodes.map(listCount));
      if (Math.min(...served) >= WARMUP_REQUESTS) break;
      await listPhase(proxy, sid, 5);
    }
    await sendOver(warmup, proxy);
    const settledSeconds = await settle(nodes, proxy, cluster);
    const idleBefore = read(nodes, proxy, cluster);
    await sleep(3000);
    const idle = spent(idleBefore, read(nodes, proxy, cluster), nodes, 3);

    const listedBefore = await Promise.all(nodes.map(listCount));
    const beforeList = read(nodes, proxy, cluster);
    const list = await listPhase(proxy, sid, SECONDS);
    const afterList = read(nodes, proxy, cluster);
    const listLoad = load();
    const listed = await Promise.all(nodes.map(listCount));

    await settle(nodes, proxy, cluster);
    const storedBefore = await Promise.all(nodes.map(storedCount));
    const waits = args.waits ? sampleWaits(cluster.url(database), database) : undefined;
    const beforeStore = read(nodes, proxy, cluster);
    const storeStarted = performance.now();
    const sends = await sendOver(files, proxy);
    const storeSeconds = (performance.now() - storeStarted) / 1000;
    const afterStore = read(nodes, proxy, cluster);
    const storeLoad = load();
    const waitLines = await waits?.();
    const stored = await Promise.all(nodes.map(storedCount));
    const storedSpread = stored.map((n, i) => n - storedBefore[i]!);
    const storedTotal = storedSpread.reduce((a, b) => a + b, 0);
    return {
      settledSeconds,
      idle,
      list: {
        operations: list.ok,
        seconds: list.seconds,
        cpuPerOp: spent(beforeList, afterList, nodes, Math.max(1, list.ok)),
        beyondIdlePerOp: beyondIdle(spent(beforeList, afterList, nodes, 1), idle, list.seconds, list.ok),
        spread: listed.map((n, i) => n - listedBefore[i]!),
        load: listLoad,
        p95Ms: list.p95Ms,
        errors: list.errors,
      },
      store: {
        operations: storedTotal,
        seconds: storeSeconds,
        cpuPerOp: spent(beforeStore, afterStore, nodes, Math.max(1, storedTotal)),
        beyondIdlePerOp: beyondIdle(
          spent(beforeStore, afterStore, nodes, 1),
          idle,
          storeSeconds,
          storedTotal,
        ),
        spread: storedSpread,
        load: storeLoad,
        failed: sends.filter((s) => s.code !== 0).length,
        associationSeconds: sends.map((s) => s.seconds),
        waits: waitLines,
      },
    };
  } finally {
    await proxy.stop();
    for (const node of nodes) await node.stop();
  }
}

/** Each process's context switches per operation of the phase (all its threads). */
const switches = (phase: Phase) =>
  Object.entries(phase.cpuPerOp)
    .filter(([k]) => k.endsWith(' switches'))
    .map(([, v]) => v.toFixed(1))
    .join('/');
const ms = (n: number | undefined) => (n === undefined ? '' : n.toFixed(2));

function printPhase(title: string, unit: string, results: Map<number, Figures>, pick: (f: Figures) => Phase) {
  const most = Math.max(...results.keys());
  const nodeIds = Array.from({ length: most }, (_, i) => `node-${i + 1}`);
  const columns = ['ops/s', ...nodeIds, 'servers', 'postgres', 'haproxy', 'total', '>idle', 'load'];
  console.log(
    `\n${title}: CPU ms per ${unit} (total = servers + postgres + haproxy; >idle = total less their idle CPU over the phase)`,
  );
  console.log(['processes'.padEnd(10), ...columns.map((c) => c.padStart(9))].join(''));
  for (const [count, figures] of results) {
    const phase = pick(figures);
    const cpu = phase.cpuPerOp;
    console.log(
      [
        String(count).padEnd(10),
        (phase.operations / phase.seconds).toFixed(1).padStart(9),
        ...nodeIds.map((id) => ms(cpu[id]).padStart(9)),
        ...['servers', 'postgres', 'haproxy', 'total'].map((k) => ms(cpu[k]).padStart(9)),
        ms(phase.beyondIdlePerOp).padStart(9),
        phase.load.toFixed(1).padStart(9),
      ].join(''),
    );
  }
}

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-bench-cluster-'));
  const cluster = await startPgCluster();
  const s3 = await startTestS3();
  const results = new Map<number, Figures>();
  try {
    const files = writeInstances(path.join(work, 'files'), INSTANCES);
    const warmup = writeInstances(path.join(work, 'warmup'), WARMUP_INSTANCES);
    for (const processes of COUNTS) {
      const database = `bench_${processes}`;
      const client = new pg.Client({ connectionString: cluster.url('postgres') });
      await client.connect();
      await client.query(`create database ${database}`);
      await client.end();
      results.set(
        processes,
        await run(
          processes,
          work,
          {
            ...s3.env,
            BLOB_STORE: `s3://inbox-blobs/${database}`,
            DATABASE_URL: cluster.url(database),
            SEED_STUDIES: args.studies,
          },
          files,
          warmup,
          cluster,
          database,
        ),
      );
    }
  } finally {
    await s3.stop();
    cluster.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }

  console.log(
    `\n${os.cpus().length} cores; ${args.studies} seeded studies; study/list at concurrency ${CONCURRENCY} for ${SECONDS} s; ${INSTANCES} C-STORE instances of ~28 KB over ${ASSOCIATIONS} associations`,
  );
  for (const [count, f] of results) {
    const list = f.list;
    const store = f.store;
    console.log(
      `\n${count} process(es): settled in ${f.settledSeconds.toFixed(0)} s; idle CPU ms/s: ${Object.entries(
        f.idle,
      )
        .filter(([k]) => !['storescu', 'total'].includes(k) && !k.endsWith(' switches'))
        .map(([k, v]) => `${k} ${v.toFixed(0)}`)
        .join(', ')}`,
    );
    console.log(
      `  study/list: ${list.operations} answered in ${list.seconds.toFixed(1)} s, p95 ${list.p95Ms.toFixed(0)} ms, errors ${JSON.stringify(list.errors)}, per process ${list.spread.join('/')} (${switches(list)} context switches per request); bench's own CPU (clients, s3rver) ${ms(list.cpuPerOp.bench)} ms/request`,
    );
    console.log(
      `  C-STORE: ${store.operations} stored in ${store.seconds.toFixed(1)} s (associations ${store.associationSeconds.map((s) => s.toFixed(1)).join('/')} s), per process ${store.spread.join('/')} (${switches(store)} context switches per instance), storescu runs failed ${store.failed}; s3rver and bench ${ms(store.cpuPerOp.bench)}, storescu ${ms(store.cpuPerOp.storescu)} ms/instance`,
    );
    if (store.waits)
      console.log(
        `  where PostgreSQL's backends were (mean over samples):\n    ${store.waits.join('\n    ')}`,
      );
  }
  printPhase('study/list', 'request', results, (f) => f.list);
  printPhase('C-STORE', 'stored instance', results, (f) => f.store);
  const one = results.get(COUNTS[0]!);
  for (const count of COUNTS.slice(1)) {
    const other = results.get(count)!;
    if (!one) break;
    console.log(
      `\n${count} processes / ${COUNTS[0]}: total CPU per operation ×${(other.list.cpuPerOp.total! / one.list.cpuPerOp.total!).toFixed(2)} (study/list), ×${(other.store.cpuPerOp.total! / one.store.cpuPerOp.total!).toFixed(2)} (C-STORE) (target ≤ ×1.15); beyond idle ×${(other.list.beyondIdlePerOp / one.list.beyondIdlePerOp).toFixed(2)}, ×${(other.store.beyondIdlePerOp / one.store.beyondIdlePerOp).toFixed(2)}; throughput ×${(other.list.operations / other.list.seconds / (one.list.operations / one.list.seconds)).toFixed(2)}, ×${(other.store.operations / other.store.seconds / (one.store.operations / one.store.seconds)).toFixed(2)}`,
    );
  }
}

main().then(
  // The clients' keep-alive sockets and s3rver's would hold the process open a while longer.
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
