/**
 * C-STORE ingest rate: dcmtk's storescu sends a directory of generated instances over ONE association
 * to a fresh server (demo world, gateway DEMO_GATEWAY → Emergency). Two sets, as in issue 4:
 *   - 10,000 small instances (100×136 16-bit CT, about 28 KB each),
 *   - 300 CT-size instances (512×512 16-bit, about 0.5 MB each).
 * Prints instances/s and MB/s (10^6 bytes of Part-10 file per second) for each, measured as the wall
 * time of the storescu process (which includes its own scan of the files) and as the server's ingest
 * window (first to last stored instance).
 *
 * Also prints the server's and storescu's CPU time per instance (storescu runs under /usr/bin/time),
 * and on Linux the server's main thread alone (its JavaScript; the file syncs run on writer threads).
 *
 *   npm run bench:cstore [-- --small 10000 --ct 300 --database-url postgres://… --sets DIR --associations 1,4 --rounds 3 --orthanc]
 *
 * --orthanc sends each set to Orthanc too (default storage settings, in a private network namespace,
 * root only) right after our server, and prints its rate beside ours: issue 4's targets are twice
 * Orthanc's, and the disk's speed drifts, so the two are best compared at the same moment.
 *
 * --associations 1,4 (the default) sends each set over one association, then another copy of it
 * (the same shape, new UIDs) over 4 concurrent associations (4 storescu processes, each with every
 * 4th file), as several modalities sending at once would; Orthanc gets the same sends. A summary
 * at the end gives each ratio.
 *
 * --rounds R (3 by default) repeats it all R times, each round with its own copies of the sets, and
 * ends with the medians: on a shared machine one round says little. With --orthanc each round
 * prints the server CPU per instance ours / Orthanc's, and the medians give, per set, the median of
 * each round's throughput and CPU ratio with the range of load averages the sends ran at (issue 34:
 * on this shared 2-core machine the CPU per instance is the figure that holds still).
 *
 * --stages prints, for each send over one association, how long an instance spent between the
 * marks of metrics/store-stages.ts (median and 90th percentile, µs), "answered → command" being
 * the sender's own time between an answer and its next command.
 *
 * Each send, ours and Orthanc's, starts on a settled machine (settle()): the dirty pages the last
 * send left are written back and the CPUs are idle, so neither inherits the other's background work.
 *
 * --sets DIR keeps the generated files in DIR and reuses them on the next run (same counts): on a busy
 * machine generating 10,000 files takes longer than sending them, and repeated runs compare better
 * on the same bytes.
 */
import { spawn, spawnSync } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PerformanceObserver, constants as perfConstants, type PerformanceEntry } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { buildInstance, newUid } from '../src/dicom/index.js';
import type { InstanceSpec } from '../src/dicom/index.js';
import { FileBlobStore } from '../src/storage/file-blob-store.js';
import { startServer } from '../src/main.js';
import { fileSyncPersistsItsName } from '../src/storage/new-name-durability.js';
import { STORE_STAGE_CHANNEL } from '../src/metrics/store-stages.js';
import { missingNodeFlags } from '../src/runtime-flags.js';
import type { StoreStageMark } from '../src/metrics/store-stages.js';
import { startOrthancPeer } from './orthanc-peer.js';
import { cpuMsOf } from './proc-cpu.js';

const { values: args } = parseArgs({
  options: {
    small: { type: 'string', default: '10000' },
    ct: { type: 'string', default: '300' },
    'database-url': { type: 'string' },
    keep: { type: 'boolean', default: false },
    sets: { type: 'string' },
    associations: { type: 'string', default: '1,4' },
    orthanc: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '3' },
    stages: { type: 'boolean', default: false },
  },
});

interface SetSpec {
  name: string;
  count: number;
  rows: number;
  columns: number;
  perSeries: number;
  seriesPerStudy: number;
}

/** Writes the set into dir; answers the total bytes. Studies of `seriesPerStudy` series of `perSeries` instances. */
function generate(dir: string, set: SetSpec): number {
  const existing = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  if (existing.length === set.count) {
    return existing.reduce((sum, name) => sum + fs.statSync(path.join(dir, name)).size, 0);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  let bytes = 0;
  let study: Omit<InstanceSpec, 'seriesInstanceUid' | 'seriesNumber' | 'sopInstanceUid' | 'instanceNumber'> =
    studyBase(0);
  let seriesUid = '';
  for (let i = 0; i < set.count; i++) {
    const inSeries = i % set.perSeries;
    const seriesIndex = Math.floor(i / set.perSeries);
    if (inSeries === 0) {
      if (seriesIndex % set.seriesPerStudy === 0) study = studyBase(seriesIndex / set.seriesPerStudy);
      seriesUid = newUid();
    }
    const file = buildInstance({
      ...study,
      seriesInstanceUid: seriesUid,
      seriesNumber: (seriesIndex % set.seriesPerStudy) + 1,
      sopInstanceUid: newUid(),
      instanceNumber: inSeries + 1,
      rows: set.rows,
      columns: set.columns,
    });
    fs.writeFileSync(path.join(dir, `${String(i).padStart(6, '0')}.dcm`), file);
    bytes += file.byteLength;
  }
  return bytes;
}

/** Each step between consecutive marks (one association: one instance after the other), in µs. */
function printStages(marks: StoreStageMark[]): void {
  const steps = new Map<string, number[]>();
  for (const [i, mark] of marks.entries()) {
    const previous = marks[i - 1];
    if (!previous) continue;
    const name = `${previous.stage} → ${mark.stage}`;
    if (!steps.has(name)) steps.set(name, []);
    steps.get(name)!.push(Number(mark.at - previous.at) / 1000);
  }
  for (const [name, us] of steps) {
    if (us.length < 10) continue;
    us.sort((a, b) => a - b);
    const at = (q: number) => us[Math.min(us.length - 1, Math.floor(us.length * q))]!.toFixed(0);
    console.log(`  stage ${name}: median ${at(0.5)} µs, p90 ${at(0.9)} µs (${us.length})`);
  }
}

function studyBase(n: number) {
  return {
    patientName: `BENCH^PATIENT${n}`,
    patientId: `BENCH-${n}`,
    patientSex: 'O',
    patientBirthDate: '19700101',
    studyInstanceUid: newUid(),
    studyDate: '20260101',
    studyTime: '120000',
    studyDescription: 'C-STORE benchmark',
    accessionNumber: `ACC${n}`,
    referringPhysician: '',
    institutionName: 'Bench',
    seriesDescription: 'bench series',
    modality: 'CT' as const,
    bodyPart: 'HEAD',
  };
}

/**
 * Runs storescu under GNU time, so its own CPU time is known: it waits for each answer, and its
 * per-instance work (reading, the PDUs) is part of every round trip.
 */
function storescu(
  dir: string,
  port: number,
  index = 0,
): Promise<{ code: number; stderr: string; cpuSeconds: number }> {
  const timeFile = path.join(root, `storescu-${index}.time`);
  return new Promise((resolve, reject) => {
    const child = spawn(
      '/usr/bin/time',
      [
        '-f',
        '%U %S',
        '-o',
        timeFile,
        'storescu',
        ...['-aet', 'DEMO_GATEWAY', '-aec', 'INBOX', '+sd', '-nh', '127.0.0.1', String(port), dir],
      ],
      { env: { ...process.env, TCP_NODELAY: '1' }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const [user, system] = fs.readFileSync(timeFile, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
      resolve({ code: code ?? -1, stderr, cpuSeconds: (user ?? 0) + (system ?? 0) });
    });
  });
}

/** Every Nth file of dir in its own directory (hard links), one per association. */
function splitFor(associations: number, dir: string): string[] {
  if (associations === 1) return [dir];
  const parts = Array.from({ length: associations }, (_, k) =>
    path.join(`${dir}-split${associations}`, String(k)),
  );
  if (!parts.every((part) => fs.existsSync(part))) {
    fs.rmSync(`${dir}-split${associations}`, { recursive: true, force: true });
    for (const part of parts) fs.mkdirSync(part, { recursive: true });
    for (const [i, name] of fs.readdirSync(dir).sort().entries()) {
      fs.linkSync(path.join(dir, name), path.join(parts[i % associations]!, name));
    }
  }
  return parts;
}

async function sendOver(parts: string[], port: number) {
  const runs = await Promise.all(parts.map((part, index) => storescu(part, port, index)));
  return {
    code: Math.max(...runs.map((run) => run.code)),
    stderr: runs.map((run) => run.stderr).join(''),
    cpuSeconds: runs.reduce((sum, run) => sum + run.cpuSeconds, 0),
  };
}

const modes = args.associations.split(',').map((n) => Math.max(1, Number(n)));
const rounds = Math.max(1, Number(args.rounds));
/** One send of one set: instances/s and CPU ms per instance, ours and Orthanc's; the load average. */
interface RoundFigures {
  rate: number;
  cpuMs: number;
  load: number;
  orthanc?: { rate: number; cpuMs: number; load: number };
}
/** Per set and mode, each round's figures. */
const results = new Map<string, RoundFigures[]>();
function record(name: string, figures: RoundFigures): void {
  results.set(name, [...(results.get(name) ?? []), figures]);
}
/** The one-minute load average, the machine's load beside each figure (issue 34). */
const load = () => os.loadavg()[0]!;
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
/** Files timed by the disk probe before each set. */
const PROBE_FILES = 60;
/** A settled machine has its CPUs at least this idle over each of SETTLED_SAMPLES windows in a row. */
const SETTLED_IDLE = 0.9;
const SETTLED_SAMPLES = 3;
const SETTLE_WINDOW_MS = 100;
const SETTLE_AT_MOST_MS = 20_000;

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-bench-cstore-'));
const sets: SetSpec[] = [
  {
    name: 'small (100x136 16-bit)',
    count: Number(args.small),
    rows: 100,
    columns: 136,
    perSeries: 100,
    seriesPerStudy: 5,
  },
  {
    name: 'CT (512x512 16-bit)',
    count: Number(args.ct),
    rows: 512,
    columns: 512,
    perSeries: 100,
    seriesPerStudy: 3,
  },
];

const server = await startServer(
  loadConfig({
    DATA_DIR: path.join(root, 'data'),
    DATABASE_URL: args['database-url'],
    HOST: '127.0.0.1',
    PORT: '0',
    DICOM_PORT: '0',
    SEED_STUDIES: '0',
    DEMO_PASSWORD: 'Bench-pass-2026',
    LOG_LEVEL: 'warn',
  }),
  (line) => {
    if (!line.startsWith('Demo')) console.log(`  server: ${line}`);
  },
);
const missingFlags = missingNodeFlags();
if (missingFlags.length) {
  console.log(
    `(the server here runs without ${missingFlags.join(' ')}, which it is deployed with: src/runtime-flags.ts)`,
  );
}
console.log(
  `server ${server.url}, DICOM port ${server.dicomPort}, ${server.ctx.db.dialect}, data ${root}, association modes ${modes.join(', ')}`,
);

// A fresh file store makes its blob directories ahead (BLOB_DIRECTORIES_AHEAD, decision 0049); the
// rates below are those of a store past that first pass, which a new installation makes once.
const blobs = server.ctx.services.blobs;
if (blobs instanceof FileBlobStore) {
  const started = performance.now();
  await blobs.directoriesMade();
  console.log(`blob directories made ahead in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const orthanc = args.orthanc ? await startOrthancPeer(root) : undefined;
if (orthanc) console.log(`${orthanc.version} beside it, in a private network namespace`);

try {
  for (let round = 1; round <= rounds; round++) {
    for (const [index, set] of sets.entries()) {
      for (const associations of modes) {
        if (set.count === 0) continue;
        // Each send has its own copy: a second send of the same instances would be a re-store.
        const dir = path.join(args.sets ?? root, `set-${index}-a${associations}-r${round}`);
        const started = performance.now();
        const bytes = generate(dir, set);
        const parts = splitFor(associations, dir);
        console.log(
          `\nround ${round}, ${set.name}, ${associations} association(s): ${set.count} files, ${(bytes / set.count / 1000).toFixed(1)} KB each, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
        );
        const syncsDirectories = !fileSyncPersistsItsName(server.ctx.config.blobDir);
        const probe = diskProbe(path.join(root, 'probe'), Math.round(bytes / set.count), syncsDirectories);
        console.log(
          `  disk alone (create, write, fdatasync${syncsDirectories ? ', directory fsync' : ''}; median of ${PROBE_FILES}): ${probe.toFixed(2)} ms per file, a ceiling of ${(1000 / probe).toFixed(0)} instances/s`,
        );
        const marks: StoreStageMark[] = [];
        const onMark = (mark: unknown) => void marks.push(mark as StoreStageMark);
        const tracing = args.stages && associations === 1;
        if (tracing) subscribe(STORE_STAGE_CHANNEL, onMark);
        const before = await instanceCount();
        const settled = await settle();
        const since = Date.now();
        const t0 = performance.now();
        const cpu0 = process.cpuUsage();
        const main0 = mainThreadCpuMs();
        const collections = fullCollections();
        const grouped = server.ctx.repos.ingest.grouped;
        const grouped0 = { commits: grouped?.commits ?? 0, rows: grouped?.rows ?? 0 };
        const { code, stderr, cpuSeconds } = await sendOver(parts, server.dicomPort);
        const wall = (performance.now() - t0) / 1000;
        if (tracing) {
          unsubscribe(STORE_STAGE_CHANNEL, onMark);
          printStages(marks);
        }
        const cpu = process.cpuUsage(cpu0);
        const full = collections.stop();
        const mainThread = main0 === undefined ? undefined : mainThreadCpuMs()! - main0;
        const stored = (await instanceCount()) - before;
        const ourLoad = load();
        const ourCpu = (cpu.user + cpu.system) / 1000 / Math.max(stored, 1);
        const window = await server.ctx.db.kysely
          .selectFrom('instances')
          .select((eb) => [eb.fn.min('created').as('first'), eb.fn.max('created').as('last')])
          .where('created', '>=', since)
          .executeTakeFirstOrThrow();
        const ingest = (Number(window.last) - Number(window.first)) / 1000;
        if (code !== 0 || stored !== set.count) {
          console.log(`  storescu exit ${code}, stored ${stored}/${set.count}\n${stderr.slice(0, 2000)}`);
        }
        const rate = (seconds: number) =>
          `${(stored / seconds).toFixed(0)} instances/s, ${(bytes / 1e6 / seconds).toFixed(1)} MB/s`;
        console.log(`  storescu wall time ${wall.toFixed(2)} s: ${rate(wall)}`);
        if (ingest > 0)
          console.log(`  server ingest window ${ingest.toFixed(2)} s (first→last stored): ${rate(ingest)}`);
        console.log(
          `  server process CPU ${ourCpu.toFixed(2)} ms/instance (user ${(cpu.user / 1000 / Math.max(stored, 1)).toFixed(2)}, system ${(cpu.system / 1000 / Math.max(stored, 1)).toFixed(2)}); load average ${ourLoad.toFixed(1)} on ${os.cpus().length} CPUs`,
        );
        if (mainThread !== undefined) {
          console.log(
            `  server main thread CPU ${(mainThread / Math.max(stored, 1)).toFixed(2)} ms/instance`,
          );
        }
        console.log(
          `  server full garbage collections during the send: ${full.count} (${full.ms.toFixed(0)} ms on the main thread; marking also runs on the other cores)`,
        );
        if (grouped && grouped.commits > grouped0.commits) {
          // Rows that waited for the connection, committed together (decision 0080); the others had their own.
          const commits = grouped.commits - grouped0.commits;
          const rows = grouped.rows - grouped0.rows;
          console.log(
            `  index rows in shared commits: ${rows} of ${stored} in ${commits} commits (${(rows / commits).toFixed(1)} a commit)`,
          );
        }
        console.log(`  storescu CPU ${((cpuSeconds * 1000) / Math.max(stored, 1)).toFixed(2)} ms/instance`);
        console.log(`  settled before the send in ${settled.toFixed(1)} s`);
        if (orthanc) {
          const theirsSettled = await settle();
          const theirCpu0 = orthanc.cpuMs();
          const seconds = await orthanc.send(parts);
          const theirCpu = (orthanc.cpuMs() - theirCpu0) / set.count;
          const theirLoad = load();
          console.log(
            `  Orthanc, the same files right after (settled in ${theirsSettled.toFixed(1)} s): storescu wall time ${seconds.toFixed(2)} s: ${(set.count / seconds).toFixed(0)} instances/s, ${(bytes / 1e6 / seconds).toFixed(1)} MB/s; ours ${(seconds / wall).toFixed(2)}× that; Orthanc's CPU ${theirCpu.toFixed(2)} ms/instance, load average ${theirLoad.toFixed(1)}`,
          );
          console.log(
            `  CPU per instance ours / Orthanc: ${ourCpu.toFixed(2)} / ${theirCpu.toFixed(2)} = ${(ourCpu / theirCpu).toFixed(2)}`,
          );
          record(`${set.name}, ${associations} association(s)`, {
            rate: stored / wall,
            cpuMs: ourCpu,
            load: ourLoad,
            orthanc: { rate: set.count / seconds, cpuMs: theirCpu, load: theirLoad },
          });
        } else {
          record(`${set.name}, ${associations} association(s)`, {
            rate: stored / wall,
            cpuMs: ourCpu,
            load: ourLoad,
          });
        }
      }
    }
  }
  printMedians();
} finally {
  await orthanc?.stop();
  await server.stop();
  if (!args.keep) fs.rmSync(root, { recursive: true, force: true });
}

/**
 * The medians over the rounds, per set: instances/s and CPU ms per instance, ours and Orthanc's,
 * and the median of each round's ratio (issue 34's targets: CPU ours / Orthanc at most 0.5,
 * throughput ours / Orthanc at least 1), with the range of load averages the rounds ran at.
 */
function printMedians(): void {
  console.log(
    `\nmedians over ${rounds} round(s) (instances/s by storescu wall time, server CPU ms per instance; ratios are medians of each round's)`,
  );
  const range = (values: number[]) => `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}`;
  for (const [name, figures] of results) {
    const ours = `ours ${median(figures.map((f) => f.rate)).toFixed(0)}/s, CPU ${median(figures.map((f) => f.cpuMs)).toFixed(2)} ms`;
    const theirs = figures.flatMap((f) => (f.orthanc ? [{ ours: f, orthanc: f.orthanc }] : []));
    if (!theirs.length) {
      console.log(
        `  ${name}: ${ours} (${figures.map((f) => f.rate.toFixed(0)).join(', ')}/s); load ${range(figures.map((f) => f.load))}`,
      );
      continue;
    }
    const rates = theirs.map((f) => f.ours.rate / f.orthanc.rate);
    const cpus = theirs.map((f) => f.ours.cpuMs / f.orthanc.cpuMs);
    const loads = theirs.flatMap((f) => [f.ours.load, f.orthanc.load]);
    console.log(
      `  ${name}: ${ours}; Orthanc ${median(theirs.map((f) => f.orthanc.rate)).toFixed(0)}/s, CPU ${median(theirs.map((f) => f.orthanc.cpuMs)).toFixed(2)} ms; ` +
        `throughput ours/Orthanc ${median(rates).toFixed(2)}× (${rates.map((r) => r.toFixed(2)).join(', ')}), ` +
        `CPU ours/Orthanc ${median(cpus).toFixed(2)} (${cpus.map((r) => r.toFixed(2)).join(', ')}); load average ${range(loads)}`,
    );
  }
}

/**
 * What the disk alone allows at this moment: the durable write of one file of `size` bytes, as
 * the server does it for each instance (the directory fsync only where the store needs it), timed
 * back to back. Every answer waits for one, so this
 * bounds the rate; it drifts with the disk (on this machine from 0.8 to 4 ms for 0.5 MB within an
 * hour), which is why each set's figure comes with it.
 */
function diskProbe(dir: string, size: number, syncDirectory: boolean): number {
  fs.mkdirSync(dir, { recursive: true });
  const bytes = Buffer.alloc(size, 0x5a);
  const times: number[] = [];
  for (let i = 0; i < PROBE_FILES; i++) {
    const started = performance.now();
    const fd = fs.openSync(path.join(dir, `${i}.probe`), 'wx');
    fs.writeSync(fd, bytes);
    fs.fdatasyncSync(fd);
    fs.closeSync(fd);
    if (syncDirectory) {
      const dirFd = fs.openSync(dir, 'r');
      fs.fsyncSync(dirFd);
      fs.closeSync(dirFd);
    }
    times.push(performance.now() - started);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return times.sort((a, b) => a - b)[times.length >> 1]!;
}

/**
 * Waits until the last send's aftermath is over: its dirty pages written back (`sync`), and the
 * CPUs idle (the servers' background work done: checkpoints, index upkeep), or SETTLE_AT_MOST_MS.
 * Answers the seconds it took. Without it, a send started while the other server was still busy
 * with the one before (on 2 CPUs, its writeback and its own threads) and paid for it.
 */
async function settle(): Promise<number> {
  const started = performance.now();
  spawnSync('sync');
  let quiet = 0;
  let last = cpuTimes();
  while (quiet < SETTLED_SAMPLES && performance.now() - started < SETTLE_AT_MOST_MS) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_WINDOW_MS));
    const now = cpuTimes();
    const idle = (now.idle - last.idle) / Math.max(1, now.total - last.total);
    quiet = idle >= SETTLED_IDLE ? quiet + 1 : 0;
    last = now;
  }
  return (performance.now() - started) / 1000;
}

/** The machine's CPU time so far, idle (with I/O wait) and in all, from /proc/stat (clock ticks). */
function cpuTimes(): { idle: number; total: number } {
  const fields = fs
    .readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return { idle: fields[3]! + fields[4]!, total: fields.reduce((sum, n) => sum + n, 0) };
}

/** Counts the full (mark-compact) garbage collections of this process's heap until stop(). */
function fullCollections(): { stop(): { count: number; ms: number } } {
  let count = 0;
  let ms = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { detail } = entry as PerformanceEntry & { detail?: { kind?: number } };
      if (detail?.kind !== perfConstants.NODE_PERFORMANCE_GC_MAJOR) continue;
      count += 1;
      ms += entry.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop: () => {
      observer.disconnect();
      return { count, ms };
    },
  };
}

async function instanceCount(): Promise<number> {
  const row = await server.ctx.db.kysely
    .selectFrom('instances')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** CPU time of this process's main thread (user + system, ms), from /proc; undefined elsewhere. */
function mainThreadCpuMs(): number | undefined {
  try {
    const ms = cpuMsOf(`/proc/self/task/${process.pid}/stat`);
    return Number.isFinite(ms) ? ms : undefined;
  } catch {
    return undefined;
  }
}
