/**
 * Search benchmark (issue 2, "Speed"): fills a fresh database with N studies and measures
 * study/list (page of 50 with its total, `with_count=1`) over HTTP, one request each.
 *
 *   npm run bench:search -- [--studies 100000] [--runs 200] [--warmup 20] [--concurrency 1]
 *                           [--pg | --database-url postgres://…] [--data-dir DIR] [--reuse] [--keep]
 *                           [--in-process]
 *
 * The server runs as it is deployed, the built `dist/main.js` in its own process (`npm run build`
 * first), so the timings are what a client sees and the benchmark's own client (HTTP, decompressing
 * and parsing each answer) does not share the server's event loop. The table adds the server's CPU
 * time per request (user + system of its process from /proc over the timed runs, divided by their
 * count; on PostgreSQL the database's own processes are not in it) and the machine's 1-minute load
 * as each query's runs end. `--in-process` starts the server inside the benchmark instead (how
 * earlier figures in docs/performance.md were taken; the client's work then adds to every request).
 *
 * With --concurrency N, N clients share the timed runs (each one request at a time): the table
 * adds the requests per second the server answered.
 *
 * SQLite goes into a fresh temporary DATA_DIR (removed afterwards unless --keep), or into
 * --data-dir (kept). A PostgreSQL database must be empty: the benchmark migrates it and leaves the
 * data in place. --pg starts a private PostgreSQL cluster for the run (as the tests do, but with
 * the en_US.UTF-8 collation of a typical install) and removes it afterwards.
 *
 * --reuse skips the fill: the database (--data-dir or --database-url) holds an earlier run's
 * studies, filled with the same --studies, so two builds can be compared on the same data.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/context.js';
import type { Db } from '../src/db/dialect.js';
import { openDatabase } from '../src/db/dialect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { startServer } from '../src/main.js';
import { seedDemo } from '../src/seed/seed-demo.js';
import { SERVER_MAIN } from '../test/support/child-server.js';
import { ClusterNode } from '../test/support/cluster.js';
import { startPgCluster } from '../test/support/pg-cluster.js';
import { benchStudy, fillStudies } from './fill.js';
import { cpuMsOf } from './proc-cpu.js';

const SEED = 4242;
const PASSWORD = 'Bench-Search-Password-42';
const ADMIN = 'admin@demo.local';
const DAY_MS = 86_400_000;

interface Args {
  studies: number;
  runs: number;
  warmup: number;
  concurrency: number;
  databaseUrl: string | undefined;
  pg: boolean;
  dataDir: string | undefined;
  reuse: boolean;
  keep: boolean;
  inProcess: boolean;
}

function parse(): Args {
  const { values } = parseArgs({
    options: {
      studies: { type: 'string', default: '100000' },
      runs: { type: 'string', default: '200' },
      warmup: { type: 'string', default: '20' },
      concurrency: { type: 'string', default: '1' },
      'database-url': { type: 'string' },
      pg: { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
      reuse: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      'in-process': { type: 'boolean', default: false },
    },
    strict: true,
  });
  const int = (name: string, raw: string, min: number) => {
    const n = Number(raw.replace(/_/g, ''));
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min}`);
    return n;
  };
  if (values.pg && values['database-url']) throw new Error('give --pg or --database-url, not both');
  if (values.reuse && !values['data-dir'] && !values['database-url'])
    throw new Error('--reuse needs the --data-dir or --database-url of an earlier run');
  return {
    studies: int('studies', values.studies, 1),
    runs: int('runs', values.runs, 1),
    warmup: int('warmup', values.warmup, 0),
    concurrency: int('concurrency', values.concurrency, 1),
    databaseUrl: values['database-url'],
    pg: values.pg,
    dataDir: values['data-dir'],
    reuse: values.reuse,
    keep: values.keep,
    inProcess: values['in-process'],
  };
}

function fmtDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');
}

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[i] ?? NaN;
}

async function dbSizeBytes(db: Db, dataDir: string): Promise<number> {
  if (db.dialect === 'postgres') {
    const { rows } = await sql<{ size: number }>`select pg_database_size(current_database()) as size`.execute(
      db.kysely,
    );
    return Number(rows[0]?.size ?? 0);
  }
  let total = 0;
  for (const name of fs.readdirSync(dataDir)) {
    if (name.startsWith('imaging-inbox.sqlite')) total += fs.statSync(path.join(dataDir, name)).size;
  }
  return total;
}

async function assertEmptyPostgres(db: Db): Promise<void> {
  const { rows } = await sql<{ n: number }>`
    select count(*) as n from information_schema.tables where table_schema = current_schema()`.execute(
    db.kysely,
  );
  if (Number(rows[0]?.n ?? 0) > 0) {
    throw new Error('The PostgreSQL database is not empty; give --database-url a freshly created database.');
  }
}

async function post(url: string, body: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

async function main() {
  const args = parse();
  const cluster = args.pg ? await startPgCluster({ locale: 'en_US.UTF-8' }) : undefined;
  try {
    await run(args, cluster?.url('postgres') ?? args.databaseUrl);
  } finally {
    cluster?.stop();
  }
}

async function run(args: Args, databaseUrl: string | undefined) {
  const dataDir = args.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bench-search-'));
  fs.mkdirSync(dataDir, { recursive: true });
  const backend = databaseUrl ? 'postgres' : 'sqlite';
  console.log(
    `bench:search  studies=${args.studies}  backend=${backend}  runs=${args.runs}  data_dir=${dataDir}`,
  );

  // 1. Fresh schema, the demo world (accounts, groups, users) without studies, then the bulk fill.
  const now = new Date();
  const db = openDatabase({ dataDir, databaseUrl });
  let peakRss = process.memoryUsage().rss;
  let fillMs = 0;
  let sizeBytes: number;
  try {
    if (args.reuse) {
      // The earlier run's studies stay; this build's migrations (new indexes) still apply.
      await migrateToLatest(db);
      if (db.dialect === 'postgres') await sql`vacuum analyze`.execute(db.kysely);
    } else {
      if (db.dialect === 'postgres') await assertEmptyPostgres(db);
      await migrateToLatest(db);
      // No blob directories made ahead: that thread would outlive the seed and still be writing
      // under DATA_DIR/blobs when the run removes its data directory.
      const seedCtx = createContext(
        loadConfig({ DATA_DIR: dataDir, SEED_DEMO: '0', BLOB_DIRECTORIES_AHEAD: '0' }),
        db,
      );
      await seedDemo(seedCtx, { password: PASSWORD, studies: 0, nominations: false, log: () => {} });
      const account = await db.kysely
        .selectFrom('accounts')
        .select(['uuid'])
        .where('vanity', '=', 'demo')
        .executeTakeFirstOrThrow();
      const groups = await db.kysely
        .selectFrom('groups')
        .select('namespace_id')
        .where('account_id', '=', account.uuid)
        .orderBy('name')
        .execute();
      const started = performance.now();
      let lastLog = started;
      await fillStudies(
        db,
        { accountId: account.uuid, namespaceIds: groups.map((g) => g.namespace_id) },
        {
          count: args.studies,
          seed: SEED,
          now,
          onProgress: (done) => {
            peakRss = Math.max(peakRss, process.memoryUsage().rss);
            if (performance.now() - lastLog > 10_000 || done === args.studies) {
              lastLog = performance.now();
              const secs = (lastLog - started) / 1000;
              console.log(`  filled ${done}/${args.studies} studies in ${secs.toFixed(1)} s`);
            }
          },
        },
      );
      // As autovacuum does after a bulk insert: statistics, and the visibility map that lets a count
      // read the index alone.
      if (db.dialect === 'postgres') await sql`vacuum analyze`.execute(db.kysely);
      fillMs = performance.now() - started;
    }
    sizeBytes = await dbSizeBytes(db, dataDir);
  } finally {
    await db.close();
  }

  // 2. The real server, on a free port.
  const server = args.inProcess
    ? await inProcessServer(dataDir, databaseUrl)
    : await serverProcess(dataDir, databaseUrl);
  try {
    const login = await post(`${server.url}/api/v3/session/login`, { login: ADMIN, password: PASSWORD });
    if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
    const sid = (JSON.parse(login.text) as { sid: string }).sid;

    // Filter values that exist in the data set (studies are deterministic for SEED and now).
    const sample = benchStudy(SEED, Math.floor(args.studies / 2), now).spec;
    const namePrefix = `${sample.patientName.slice(0, 3)}%`;
    const accession = benchStudy(SEED, Math.floor(args.studies / 3), now).spec.accessionNumber;
    const from = now.getTime() - 200 * DAY_MS;
    const queries: { name: string; filters: Record<string, string> }[] = [
      { name: 'no filter', filters: {} },
      { name: `patient name like ${namePrefix}`, filters: { 'filter.patient_name.like': namePrefix } },
      { name: `accession = ${accession}`, filters: { 'filter.accession_number.equals': accession } },
      {
        name: `study date ${fmtDate(from)}..${fmtDate(from + 30 * DAY_MS)}`,
        filters: {
          'filter.study_date.ge': fmtDate(from),
          'filter.study_date.le': fmtDate(from + 30 * DAY_MS),
        },
      },
      {
        name: 'modality in [CT,MR], sort patient_name',
        filters: { 'filter.modality.in': '["CT","MR"]', sort_by: 'patient_name-asc' },
      },
    ];

    // 3. Warm-up of every query first, then timed runs of a page of 50 with its total. A freshly
    // started server spends its first thousand requests compiling its hot paths on the same two
    // cores; warmed query by query, whichever query came first took that into its tail (its p95
    // 8-10 ms first, 5.8-5.9 ms when timed last: docs/performance-log.md).
    const results: {
      name: string;
      count: number;
      rows: number;
      median: number;
      p95: number;
      perSecond: number;
      cpuPerRequest: number;
      load: number;
    }[] = [];
    const listUrl = `${server.url}/api/v3/study/list`;
    const bodyOf = (q: (typeof queries)[number]) => ({
      sid,
      'page.rows': '50',
      with_count: '1',
      ...q.filters,
    });
    for (const q of queries) {
      const body = bodyOf(q);
      for (let i = 0; i < args.warmup; i++) checkAnswer(q.name, (await post(listUrl, body)).text);
    }
    for (const q of queries) {
      const body = bodyOf(q);
      let last = { rows: 0, count: 0 };
      const check = (text: string) => (last = checkAnswer(q.name, text));
      const times: number[] = [];
      let started = 0;
      const client = async () => {
        while (started < args.runs) {
          started++;
          const t0 = performance.now();
          const res = await post(listUrl, body);
          times.push(performance.now() - t0);
          if (res.status !== 200) throw new Error(`${q.name}: HTTP ${res.status}`);
          check(res.text);
        }
      };
      const wall0 = performance.now();
      const cpu0 = server.cpuMs();
      await Promise.all(Array.from({ length: args.concurrency }, client));
      const perSecond = times.length / ((performance.now() - wall0) / 1000);
      const cpuPerRequest = (server.cpuMs() - cpu0) / times.length;
      if (last.count === 0 || last.rows === 0)
        throw new Error(`${q.name}: no matches, the benchmark query is wrong`);
      times.sort((a, b) => a - b);
      results.push({
        name: q.name,
        count: last.count,
        rows: last.rows,
        median: percentile(times, 0.5),
        p95: percentile(times, 0.95),
        perSecond,
        cpuPerRequest,
        // The machine's 1-minute load as the query's runs end: on two shared cores a CPU figure
        // taken at load 12 is not one taken idle (cache and frequency), so each is printed with it.
        load: os.loadavg()[0]!,
      });
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }

    const width = Math.max(...results.map((r) => r.name.length), 5);
    console.log('');
    console.log(
      `${'query'.padEnd(width)}  ${'matches'.padStart(8)}  ${'rows'.padStart(4)}  ${'median'.padStart(8)}  ${'p95'.padStart(8)}  ${'req/s'.padStart(7)}  ${'server CPU/req'.padStart(14)}  ${'load'.padStart(5)}`,
    );
    for (const r of results) {
      console.log(
        `${r.name.padEnd(width)}  ${String(r.count).padStart(8)}  ${String(r.rows).padStart(4)}  ${r.median.toFixed(1).padStart(5)} ms  ${r.p95.toFixed(1).padStart(5)} ms  ${r.perSecond.toFixed(0).padStart(7)}  ${`${r.cpuPerRequest.toFixed(2)} ms`.padStart(14)}  ${r.load.toFixed(1).padStart(5)}`,
      );
    }
    console.log('');
    console.log(
      `studies=${args.studies} backend=${backend} runs=${args.runs} concurrency=${args.concurrency} server=${args.inProcess ? 'in-process' : 'process'} (study/list page.rows=50 with_count=1)`,
    );
    console.log(
      args.reuse
        ? 'fill_s=reused'
        : `fill_s=${(fillMs / 1000).toFixed(1)} (${Math.round(args.studies / (fillMs / 1000))} studies/s)`,
    );
    console.log(
      `load_1m_5m_15m=${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} cores=${os.cpus().length}`,
    );
    console.log(`db_size_mb=${(sizeBytes / 1024 / 1024).toFixed(1)}`);
    console.log(`peak_rss_mb=${(peakRss / 1024 / 1024).toFixed(0)}`);
    console.log(`p95_ms_max=${Math.max(...results.map((r) => r.p95)).toFixed(1)}`);
  } finally {
    await server.stop();
    if (!args.keep && !args.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A study/list answer's rows and total, or an error naming the query when it is not OK. */
function checkAnswer(name: string, text: string): { rows: number; count: number } {
  const answer = JSON.parse(text) as { status: string; studies?: unknown[]; page?: { total?: number } };
  if (answer.status !== 'OK') throw new Error(`${name}: ${text.slice(0, 300)}`);
  return { rows: answer.studies?.length ?? 0, count: answer.page?.total ?? 0 };
}

interface BenchServer {
  url: string;
  /** CPU time (user + system) the server has used so far; in-process, the whole benchmark's. */
  cpuMs(): number;
  stop(): Promise<void>;
}

function serverEnv(dataDir: string, databaseUrl: string | undefined): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    SEED_DEMO: '0',
    LOG_LEVEL: 'warn',
    // Searches store no files: no blob directories made ahead beside the timed requests.
    BLOB_DIRECTORIES_AHEAD: '0',
  };
}

async function inProcessServer(dataDir: string, databaseUrl: string | undefined): Promise<BenchServer> {
  const env = serverEnv(dataDir, databaseUrl);
  const server = await startServer(
    loadConfig({ ...env, HOST: '127.0.0.1', PORT: '0', DICOM_PORT: '0' }),
    () => {},
  );
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  return { url: server.url, cpuMs, stop: () => server.stop() };
}

/** The built server as deployed (`node dist/main.js`), in a process of its own. */
async function serverProcess(dataDir: string, databaseUrl: string | undefined): Promise<BenchServer> {
  if (!fs.existsSync(SERVER_MAIN)) throw new Error(`${SERVER_MAIN} is missing: run \`npm run build\` first`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-search-server-'));
  const node = await ClusterNode.create('server', work, serverEnv(dataDir, databaseUrl));
  await node.start();
  const pid = node.child!.pid!;
  const cpuMs = () => cpuMsOf(`/proc/${pid}/stat`);
  return {
    url: node.url,
    cpuMs,
    stop: async () => {
      await node.stop();
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
