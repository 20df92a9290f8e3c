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
 * On a machine of few cores a single run's ratio swings with whatever else runs. `--rounds N` runs
 * the process counts alternately (1, 3, 1, 3, …), each on a fresh database, and prints each round's
 * ratio with the median and range. `--pin` gives the server processes the same cores in every phase
 * (`--server-cpus`, by default the upper half of the machine's) and PostgreSQL, haproxy, s3rver,
 * the clients and storescu the others (`--other-cpus`), with taskset; the output says what is
 * pinned (other people's work on the machine is not). `--builds a=path/main.js,b=…` runs each
 * build (a copy of `dist/`) in every round, in alternating order, to measure a change before and
 * after in one sitting. Each part's idle CPU (haproxy's health probes, job polls, timers) is printed
 * apart, and each per-operation figure is given with and without it (`>idle`). `--processes 1,3,1/3`
 * adds one process under a third of the concurrency and associations (what each of three
 * receives), which tells a cost of there being three processes from one of each having less work.
 * Each phase also prints the connections opened to PostgreSQL meanwhile.
 *
 * Needs the built server (`npm run build`) and haproxy. Everything runs on this machine, so the
 * processes share its cores with PostgreSQL, s3rver (in this process), haproxy and the clients.
 *
 *   npm run bench:cluster [-- --seconds 15 --instances 600 --studies 200 --warmup 500 --processes 1,3,1/3 --associations 4 --waits --rounds 2 --pin --builds a=dist/main.js,b=.tmp/other/main.js]
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildInstance, newUid } from '../src/dicom/index.js';
import { SERVER_NODE_FLAGS } from '../src/runtime-flags.js';
import { SERVER_MAIN } from '../test/support/child-server.js';
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
    rounds: { type: 'string', default: '1' },
    pin: { type: 'boolean', default: false },
    'server-cpus': { type: 'string' },
    'other-cpus': { type: 'string' },
    builds: { type: 'string' },
  },
});
const ROUNDS = Number(args.rounds);
const CPUS = os.cpus().length;
/** Cores of the server processes and of everything else when pinned: upper and lower half by default. */
const SERVER_CPUS = args['server-cpus'] ?? `${Math.floor(CPUS / 2)}-${CPUS - 1}`;
const OTHER_CPUS = args['other-cpus'] ?? `0-${Math.max(0, Math.floor(CPUS / 2) - 1)}`;
/** The builds compared, by label: node's arguments for each. */
const BUILDS: [string, string[]][] = (args.builds ?? `current=${SERVER_MAIN}`).split(',').map((entry) => {
  const [label, main] = entry.split('=');
  return [label!, [...SERVER_NODE_FLAGS, path.resolve(main!)]];
});
const SECONDS = Number(args.seconds);
/** Concurrent storescu associations, spread by haproxy over the processes. */
const ASSOCIATIONS = Number(args.associations);
const INSTANCES = Number(args.instances);
/**
 * What each phase runs: `3` is three processes under the whole load; `1/3` is one process under a
 * third of it (study/list at a third of the concurrency, C-STORE over a third of the associations,
 * at least one), about what each of three processes receives.
 */
interface Setup {
  label: string;
  processes: number;
  concurrency: number;
  associations: number;
}
const SETUPS: Setup[] = args.processes.split(',').map((entry) => {
  const [processes, divisor = 1] = entry.split('/').map(Number) as [number, number?];
  return {
    label: divisor === 1 ? `${processes}` : `${processes} at 1/${divisor} load`,
    processes,
    concurrency: Math.max(1, Math.round(CONCURRENCY / divisor)),
    associations: Math.max(1, Math.round(ASSOCIATIONS / divisor)),
  };
});
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
  /** Each part's CPU per operation less what it spends idle over as long (health checks, job polls). */
  beyondIdlePerOp: Reading;
  /** Operations each process served (from its /metrics). */
  spread: number[];
  /** Connections opened to the database during the phase (pg_stat_database.sessions, flushed within ~1 s). */
  connections: number;
  load: number;
}

interface Figures {
  list: Phase & { p95Ms: number; errors: Record<string, number> };
  store: Phase & { failed: number; associationSeconds: number[]; waits?: string[] };
  idle: Reading;
  settledSeconds: number;
  /** Cores each part may run on (Cpus_allowed_list), read during the run. */
  cpus: Record<string, string>;
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

/** Pins every thread of `pid` (the threads it starts later inherit it) to `cpus` (taskset's list). */
function pin(pid: number, cpus: string): void {
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
}

/** The cores a process may run on, as the kernel reports them. */
function allowedCpus(pid: number): string {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return /^Cpus_allowed_list:\s+(\S+)$/m.exec(status)?.[1] ?? '?';
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

/** Each part's CPU ms per operation above what it spends idle (ms/s in `idle`) over `seconds`. */
function beyondIdle(used: Reading, idle: Reading, seconds: number, operations: number): Reading {
  const out: Reading = {};
  for (const key of Object.keys(used)) {
    if (key.endsWith(' switches')) continue;
    out[key] = (used[key]! - (idle[key] ?? 0) * seconds) / Math.max(1, operations);
  }
  return out;
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

/** `files` over `associations` concurrent storescu associations through haproxy (instance i on i mod n). */
function sendOver(files: string[], proxy: Haproxy, associations: number) {
  return Promise.all(
    Array.from({ length: associations }, (_, a) =>
      storescu(
        files.filter((_, i) => i % associations === a),
        proxy.dicomPort,
      ),
    ),
  );
}

async function listPhase(
  proxy: Haproxy,
  sid: string,
  seconds: number,
  concurrency: number,
): Promise<{ ok: number; seconds: number; p95Ms: number; errors: Record<string, number> }> {
  const latencies: number[] = [];
  const errors: Record<string, number> = {};
  const until = Date.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
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
  { processes, concurrency, associations }: Setup,
  serverArgs: string[],
  work: string,
  env: Record<string, string>,
  files: string[],
  warmup: string[],
  cluster: PgCluster,
  database: string,
): Promise<Figures> {
  const dir = path.join(work, database);
  const nodes: ClusterNode[] = [];
  for (let i = 0; i < processes; i++)
    nodes.push(await ClusterNode.create(`node-${i + 1}`, dir, env, serverArgs));
  // One at a time: the first migrates and seeds, the others would only wait for its lock.
  for (const node of nodes) {
    await node.start();
    if (args.pin) pin(node.child!.pid!, SERVER_CPUS);
  }
  const proxy = await Haproxy.start(dir, nodes);
  try {
    const cpus: Record<string, string> = {};
    for (const node of nodes) cpus[node.id] = allowedCpus(node.child!.pid!);
    cpus.postgres = allowedCpus(cluster.postmasterPid());
    cpus.haproxy = proxy.pid ? allowedCpus(proxy.pid) : '?';
    cpus['bench (s3rver, clients, storescu)'] = allowedCpus(process.pid);
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
      await listPhase(proxy, sid, 5, concurrency);
    }
    await sendOver(warmup, proxy, associations);
    const settledSeconds = await settle(nodes, proxy, cluster);
    const idleBefore = read(nodes, proxy, cluster);
    await sleep(3000);
    const idle = spent(idleBefore, read(nodes, proxy, cluster), nodes, 3);

    const stats = new pg.Client({ connectionString: cluster.url('postgres') });
    await stats.connect();
    const sessions = async () => {
      const { rows } = await stats.query<{ sessions: string }>(
        'select sessions from pg_stat_database where datname = $1',
        [database],
      );
      return Number(rows[0]?.sessions ?? 0);
    };
    const listedBefore = await Promise.all(nodes.map(listCount));
    const sessionsBeforeList = await sessions();
    const beforeList = read(nodes, proxy, cluster);
    const list = await listPhase(proxy, sid, SECONDS, concurrency);
    const afterList = read(nodes, proxy, cluster);
    const listLoad = load();
    const listed = await Promise.all(nodes.map(listCount));

    await settle(nodes, proxy, cluster);
    const sessionsAfterList = await sessions();
    const storedBefore = await Promise.all(nodes.map(storedCount));
    const waits = args.waits ? sampleWaits(cluster.url(database), database) : undefined;
    const beforeStore = read(nodes, proxy, cluster);
    const storeStarted = performance.now();
    const sends = await sendOver(files, proxy, associations);
    const storeSeconds = (performance.now() - storeStarted) / 1000;
    const afterStore = read(nodes, proxy, cluster);
    const storeLoad = load();
    const waitLines = await waits?.();
    const stored = await Promise.all(nodes.map(storedCount));
    const storedSpread = stored.map((n, i) => n - storedBefore[i]!);
    const storedTotal = storedSpread.reduce((a, b) => a + b, 0);
    await sleep(1000);
    const sessionsAfterStore = await sessions();
    await stats.end();
    return {
      settledSeconds,
      cpus,
      idle,
      list: {
        operations: list.ok,
        seconds: list.seconds,
        cpuPerOp: spent(beforeList, afterList, nodes, Math.max(1, list.ok)),
        beyondIdlePerOp: beyondIdle(spent(beforeList, afterList, nodes, 1), idle, list.seconds, list.ok),
        spread: listed.map((n, i) => n - listedBefore[i]!),
        connections: sessionsAfterList - sessionsBeforeList,
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
        connections: sessionsAfterStore - sessionsAfterList,
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

/** One phase of one run: which round, which build, how many processes. */
interface Result {
  round: number;
  build: string;
  setup: Setup;
  figures: Figures;
}

const PARTS = ['servers', 'postgres', 'haproxy', 'total'];

function printPhase(title: string, unit: string, results: Result[], pick: (f: Figures) => Phase) {
  const most = Math.max(...results.map((r) => r.setup.processes));
  const nodeIds = Array.from({ length: most }, (_, i) => `node-${i + 1}`);
  const columns = ['ops/s', ...nodeIds, ...PARTS, 'load'];
  console.log(
    `\n${title}: CPU ms per ${unit} (total = servers + postgres + haproxy); the line below each, >idle, is the same less each part's idle CPU over the phase`,
  );
  console.log(['run'.padEnd(22), ...columns.map((c) => c.padStart(9))].join(''));
  for (const { round, build, setup, figures } of results) {
    const phase = pick(figures);
    const cells = (cpu: Reading) => [...nodeIds, ...PARTS].map((k) => ms(cpu[k]).padStart(9));
    const label = `r${round} ${BUILDS.length > 1 ? `${build} ` : ''}${setup.label.replace(' load', '')} p.`;
    console.log(
      [
        label.padEnd(22),
        (phase.operations / phase.seconds).toFixed(1).padStart(9),
        ...cells(phase.cpuPerOp),
        phase.load.toFixed(1).padStart(9),
      ].join(''),
    );
    console.log(['  >idle'.padEnd(22), ''.padStart(9), ...cells(phase.beyondIdlePerOp)].join(''));
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
/** "×median (×low–×high, n rounds)" of ratios. */
const spread = (ratios: number[]) =>
  ratios.length === 1
    ? `×${ratios[0]!.toFixed(2)}`
    : `×${median(ratios).toFixed(2)} (×${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}, ${ratios.length} rounds)`;

/** Ratios of `a` over `b` paired by round, for what `value` picks. */
function ratios(a: Result[], b: Result[], value: (f: Figures) => number): number[] {
  return a.flatMap((x) => {
    const y = b.find((r) => r.round === x.round);
    return y ? [value(x.figures) / value(y.figures)] : [];
  });
}

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-bench-cluster-'));
  // Pinned, this process (s3rver, the clients) goes to the other cores first, so PostgreSQL,
  // haproxy and storescu, which it starts, inherit them; each server is moved once started.
  if (args.pin) pin(process.pid, OTHER_CPUS);
  const cluster = await startPgCluster();
  const s3 = await startTestS3();
  const results: Result[] = [];
  try {
    const files = writeInstances(path.join(work, 'files'), INSTANCES);
    const warmup = writeInstances(path.join(work, 'warmup'), WARMUP_INSTANCES);
    for (let round = 1; round <= ROUNDS; round++) {
      // Builds in alternating order from round to round, so a drift of the machine favours neither.
      const builds = round % 2 ? BUILDS : [...BUILDS].reverse();
      for (const [build, serverArgs] of builds) {
        for (const [index, setup] of SETUPS.entries()) {
          const database = `bench_r${round}_${build.replace(/\W/g, '_')}_${index}`;
          const client = new pg.Client({ connectionString: cluster.url('postgres') });
          await client.connect();
          await client.query(`create database ${database}`);
          await client.end();
          const figures = await run(
            setup,
            serverArgs,
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
          );
          results.push({ round, build, setup, figures });
          console.error(
            `round ${round} ${build} ${setup.label} process(es): study/list ${ms(figures.list.cpuPerOp.total)} ms/request, C-STORE ${ms(figures.store.cpuPerOp.total)} ms/instance, load ${load().toFixed(1)}`,
          );
        }
      }
    }
  } finally {
    await s3.stop();
    cluster.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }

  console.log(
    `\n${CPUS} cores; ${args.studies} seeded studies; study/list for ${SECONDS} s; ${INSTANCES} C-STORE instances of ~28 KB; ${ROUNDS} round(s) of ${SETUPS.map((u) => `${u.label} process(es) (concurrency ${u.concurrency}, ${u.associations} associations)`).join(', ')} in turn${BUILDS.length > 1 ? `, builds ${BUILDS.map(([b]) => b).join(' and ')} in alternating order` : ''}`,
  );
  const cpusSeen = results[0]!.figures.cpus;
  console.log(
    args.pin
      ? `pinned with taskset: server processes on CPU ${SERVER_CPUS}; PostgreSQL, haproxy, s3rver, the clients and storescu on CPU ${OTHER_CPUS}; other people's work on the machine is not pinned. Allowed, as read: ${Object.entries(
          cpusSeen,
        )
          .map(([k, v]) => `${k} ${v}`)
          .join('; ')}`
      : `not pinned: every part may run on any core (${Object.entries(cpusSeen)
          .map(([k, v]) => `${k} ${v}`)
          .join('; ')})`,
  );
  for (const { round, build, setup, figures: f } of results) {
    const list = f.list;
    const store = f.store;
    console.log(
      `\nround ${round}${BUILDS.length > 1 ? `, build ${build}` : ''}, ${setup.label} process(es): settled in ${f.settledSeconds.toFixed(0)} s; idle CPU ms/s (health probes, job polls, timers): ${Object.entries(
        f.idle,
      )
        .filter(([k]) => !['storescu', 'total'].includes(k) && !k.endsWith(' switches'))
        .map(([k, v]) => `${k} ${v.toFixed(0)}`)
        .join(', ')}`,
    );
    console.log(
      `  study/list: ${list.operations} answered in ${list.seconds.toFixed(1)} s, p95 ${list.p95Ms.toFixed(0)} ms, errors ${JSON.stringify(list.errors)}, per process ${list.spread.join('/')} (${switches(list)} context switches per request), ${list.connections} connections opened to PostgreSQL; bench's own CPU (clients, s3rver) ${ms(list.cpuPerOp.bench)} ms/request; idle CPU of the servers over the phase ${ms(list.cpuPerOp.servers! - list.beyondIdlePerOp.servers!)} ms/request`,
    );
    console.log(
      `  C-STORE: ${store.operations} stored in ${store.seconds.toFixed(1)} s (associations ${store.associationSeconds.map((s) => s.toFixed(1)).join('/')} s), per process ${store.spread.join('/')} (${switches(store)} context switches per instance), ${store.connections} connections opened to PostgreSQL, storescu runs failed ${store.failed}; s3rver and bench ${ms(store.cpuPerOp.bench)}, storescu ${ms(store.cpuPerOp.storescu)} ms/instance; idle CPU of the servers over the phase ${ms(store.cpuPerOp.servers! - store.beyondIdlePerOp.servers!)} ms/instance`,
    );
    if (store.waits)
      console.log(
        `  where PostgreSQL's backends were (mean over samples):\n    ${store.waits.join('\n    ')}`,
      );
  }
  printPhase('study/list', 'request', results, (f) => f.list);
  printPhase('C-STORE', 'stored instance', results, (f) => f.store);
  const of = (build: string, setup: Setup) => results.filter((r) => r.build === build && r.setup === setup);
  for (const [build] of BUILDS) {
    // Every setup over each earlier one: 3 over 1, and with `1,3,1/3` also 3 over 1 at a third of the load.
    for (const [index, base] of SETUPS.entries())
      for (const setup of SETUPS.slice(index + 1)) {
        const one = of(build, base);
        const other = of(build, setup);
        const line = (name: string, pick: (f: Figures) => Phase) =>
          `  ${name}: total ${spread(ratios(other, one, (f) => pick(f).cpuPerOp.total!))}, beyond idle ${spread(ratios(other, one, (f) => pick(f).beyondIdlePerOp.total!))}, servers only ${spread(ratios(other, one, (f) => pick(f).cpuPerOp.servers!))}, PostgreSQL ${spread(ratios(other, one, (f) => pick(f).cpuPerOp.postgres!))}; throughput ${spread(ratios(other, one, (f) => pick(f).operations / pick(f).seconds))}`;
        console.log(
          `\n${BUILDS.length > 1 ? `build ${build}: ` : ''}${setup.label} / ${base.label} process(es), CPU per operation (target total ≤ ×1.15), median (range) over rounds paired in turn:`,
        );
        console.log(line('study/list', (f) => f.list));
        console.log(line('C-STORE', (f) => f.store));
      }
  }
  if (BUILDS.length > 1) {
    const [base] = BUILDS[0]!;
    for (const [build] of BUILDS.slice(1)) {
      console.log(`\nbuild ${build} / ${base}, total CPU per operation, median (range) over rounds:`);
      for (const setup of SETUPS) {
        const a = of(build, setup);
        const b = of(base, setup);
        console.log(
          `  ${setup.label} process(es): study/list ${spread(ratios(a, b, (f) => f.list.cpuPerOp.total!))}, C-STORE ${spread(ratios(a, b, (f) => f.store.cpuPerOp.total!))} (servers ${spread(ratios(a, b, (f) => f.store.cpuPerOp.servers!))}, PostgreSQL ${spread(ratios(a, b, (f) => f.store.cpuPerOp.postgres!))})`,
        );
      }
    }
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
