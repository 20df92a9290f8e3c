/**
 * C-FIND benchmark (issue 31): the inbox as a query/retrieve peer of a workstation, beside Orthanc
 * answering the same C-FINDs on the same studies, in one run.
 *
 *   npm run bench:cfind [-- --studies 10000 --rounds 3 --sets DIR --no-orthanc]
 *
 * Both servers get the same generated files (one small CT instance per study, three studies per
 * patient, study dates over two years) by dcmtk's storescu, then answer dcmtk's findscu at STUDY
 * level (Study Root) for three queries: every study, a patient name prefix, a 30-day date range.
 * Each runs in a private network namespace of its own with its findscu beside it, so both are asked
 * the same way over the same loopback (Orthanc binds every interface; our built server runs there
 * too, as deployed). For each query the table gives the matches, the time from the request to the
 * first and to the last response (findscu's log lines, read as they come), and the server's CPU per
 * query (user + system from /proc, in 10 ms ticks: use sets of thousands), medians of the rounds
 * after one untimed pass. The inbox answers the node DEMO_GATEWAY,
 * which may query Emergency, where the files were stored; Orthanc lets any AE query.
 *
 * The figures swing with the host: compare the ratios of one run. --sets DIR keeps the generated
 * files for the next run (same --studies). Root only (network namespaces); the bench exits 0 whatever
 * the figures.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildInstance } from '../src/dicom/index.js';
import { SERVER_ARGS, SERVER_MAIN } from '../test/support/child-server.js';
import type { NetworkNamespace } from '../test/support/netns.js';
import { createNetworkNamespace, waitForHttp } from '../test/support/netns.js';
import { DEMO_PASSWORD } from '../test/support/test-server.js';
import { startOrthancPeer } from './orthanc-peer.js';
import { cpuMsOf } from './proc-cpu.js';

const { values: args } = parseArgs({
  options: {
    studies: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '3' },
    sets: { type: 'string' },
    'no-orthanc': { type: 'boolean', default: false },
  },
});
const STUDIES = Number(args.studies);
const ROUNDS = Number(args.rounds);
const DAY_MS = 86_400_000;
const NAMES = [
  'ANDERSON',
  'BERNARD',
  'CHEN',
  'DUBOIS',
  'EVANS',
  'FISCHER',
  'GARCIA',
  'HANSEN',
  'IVANOV',
  'JONES',
];
/** A fixed "now" so that a kept set and the date-range query agree across runs. */
const NOW = Date.UTC(2026, 10, 1);

const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');
const uid = (kind: number, index: number) => `1.2.826.0.1.3680043.10.1078.${kind}.${index + 1}`;

/** One small CT instance per study, deterministic from its index. */
function writeSet(dir: string): void {
  const marker = path.join(dir, `.complete-${STUDIES}`);
  if (fs.existsSync(marker)) return;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (let i = 0; i < STUDIES; i++) {
    const patient = Math.floor(i / 3);
    const file = buildInstance({
      patientName: `${NAMES[patient % NAMES.length]}^PATIENT${patient}`,
      patientId: `MRN${String(patient).padStart(7, '0')}`,
      patientSex: patient % 2 ? 'F' : 'M',
      patientBirthDate: '19600101',
      studyInstanceUid: uid(1, i),
      studyDate: ymd(NOW - Math.floor((i * 730 * DAY_MS) / STUDIES)),
      studyTime: '101500',
      accessionNumber: `ACC${i}`,
      referringPhysician: 'REFERRER^ONE',
      institutionName: 'Bench Hospital',
      studyDescription: 'CT HEAD',
      seriesDescription: 'AXIAL',
      modality: 'CT',
      bodyPart: 'HEAD',
      seriesInstanceUid: uid(2, i),
      seriesNumber: 1,
      sopInstanceUid: uid(3, i),
      instanceNumber: 1,
      rows: 16,
      columns: 16,
    });
    fs.writeFileSync(path.join(dir, `${i}.dcm`), file);
  }
  fs.writeFileSync(marker, '');
}

interface Peer {
  name: string;
  ns: NetworkNamespace;
  aeTitle: string;
  callingAe: string;
  port: number;
  cpuMs(): number;
  stop(): Promise<void>;
}

/** The built server as deployed, inside a namespace of its own, with the demo world and no studies. */
async function startInbox(dir: string): Promise<Peer> {
  if (!fs.existsSync(SERVER_MAIN)) throw new Error(`${SERVER_MAIN} is missing: run \`npm run build\` first`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cfind-'));
  const ns = await createNetworkNamespace();
  const child = ns.start(process.execPath, SERVER_ARGS, {
    PORT: '8080',
    HOST: '127.0.0.1',
    DICOM_PORT: '11112',
    DATA_DIR: dataDir,
    DEMO_PASSWORD,
    SEED_STUDIES: '0',
    SEED_NOMINATIONS: '0',
    LOG_LEVEL: 'warn',
    BLOB_DIRECTORIES_AHEAD: '0',
  });
  await waitForHttp(ns, 'http://127.0.0.1:8080/readyz', 120_000);
  await store(ns, 'DEMO_GATEWAY', 'INBOX', 11112, dir);
  return {
    name: 'inbox',
    ns,
    aeTitle: 'INBOX',
    callingAe: 'DEMO_GATEWAY',
    port: 11112,
    cpuMs: () => cpuMsOf(`/proc/${child.pid}/stat`),
    stop: async () => {
      await ns.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function store(ns: NetworkNamespace, callingAe: string, calledAe: string, port: number, dir: string) {
  await ns.run('env', [
    'TCP_NODELAY=1',
    'storescu',
    '-aet',
    callingAe,
    '-aec',
    calledAe,
    '+sd',
    '-nh',
    '127.0.0.1',
    String(port),
    dir,
  ]);
}

interface FindRun {
  matches: number;
  firstMs: number;
  lastMs: number;
  cpuMs: number;
}

/**
 * One findscu at STUDY level inside the peer's namespace. Times are taken in this process as its
 * log lines arrive: from "Sending Find Request" to the first and the last "Find Response".
 */
function find(peer: Peer, keys: Record<string, string>): Promise<FindRun> {
  const keyArgs = Object.entries(keys).flatMap(([k, v]) => ['-k', v === '' ? k : `${k}=${v}`]);
  return new Promise((resolve, reject) => {
    const cpu0 = peer.cpuMs();
    const child = peer.ns.start(
      'findscu',
      [
        '-v',
        '-S',
        '-aet',
        peer.callingAe,
        '-aec',
        peer.aeTitle,
        '127.0.0.1',
        String(peer.port),
        '-k',
        'QueryRetrieveLevel=STUDY',
        ...keyArgs,
      ],
      { TCP_NODELAY: '1' },
    );
    let sent = 0;
    let first = 0;
    let last = 0;
    let pending = 0;
    let rest = '';
    const onData = (chunk: Buffer) => {
      const now = performance.now();
      const lines = (rest + chunk.toString('latin1')).split('\n');
      rest = lines.pop()!;
      for (const line of lines) {
        if (!sent && line.includes('Sending Find Request')) sent = now;
        else if (/Find Response: \d+ \((Pending|Success)/.test(line)) {
          if (!first) first = now;
          last = now;
          if (line.includes('Pending')) pending++;
        }
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 || !sent) return reject(new Error(`findscu against ${peer.name} exited ${code}`));
      // The server's CPU settles once the last response is written; read it after the close.
      resolve({ matches: pending, firstMs: first - sent, lastMs: last - sent, cpuMs: peer.cpuMs() - cpu0 });
    });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const setDir = args.sets ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cfind-set-'));
  const t0 = performance.now();
  writeSet(setDir);
  console.log(
    `bench:cfind  studies=${STUDIES}  rounds=${ROUNDS}  set=${setDir} (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
  const peers: Peer[] = [];
  try {
    let t = performance.now();
    peers.push(await startInbox(setDir));
    console.log(`  inbox stored ${STUDIES} studies in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    if (!args['no-orthanc']) {
      t = performance.now();
      const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cfind-orthanc-'));
      const orthanc = await startOrthancPeer(work);
      await orthanc.send([setDir]);
      console.log(
        `  ${orthanc.version} stored ${STUDIES} studies in ${((performance.now() - t) / 1000).toFixed(1)} s`,
      );
      peers.push({
        name: 'Orthanc',
        ns: orthanc.ns,
        aeTitle: 'ORTHANC',
        callingAe: 'BENCH',
        port: orthanc.port,
        cpuMs: () => orthanc.cpuMs(),
        stop: async () => {
          await orthanc.stop();
          fs.rmSync(work, { recursive: true, force: true });
        },
      });
    }
    const returnKeys = {
      PatientName: '',
      PatientID: '',
      StudyDate: '',
      AccessionNumber: '',
      StudyDescription: '',
      ModalitiesInStudy: '',
      StudyInstanceUID: '',
    };
    const queries: { name: string; keys: Record<string, string> }[] = [
      { name: 'every study', keys: returnKeys },
      { name: 'PatientName=CHEN*', keys: { ...returnKeys, PatientName: 'CHEN*' } },
      {
        name: 'StudyDate: 30 days',
        keys: { ...returnKeys, StudyDate: `${ymd(NOW - 200 * DAY_MS)}-${ymd(NOW - 170 * DAY_MS)}` },
      },
    ];
    // One untimed pass first: a freshly started server compiles its hot paths on the first queries.
    for (const q of queries) for (const peer of peers) await find(peer, q.keys);
    const results = new Map<string, FindRun[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const q of queries) {
        for (const peer of peers) {
          const run = await find(peer, q.keys);
          const key = `${q.name}|${peer.name}`;
          results.set(key, [...(results.get(key) ?? []), run]);
        }
      }
    }
    console.log('');
    console.log(
      `${'query'.padEnd(22)}  ${'server'.padEnd(8)}  ${'matches'.padStart(7)}  ${'first'.padStart(9)}  ${'last'.padStart(10)}  ${'CPU/query'.padStart(10)}  ${'CPU/1000 answers'.padStart(16)}`,
    );
    for (const q of queries) {
      const byPeer = new Map<string, { first: number; last: number; cpu: number; matches: number }>();
      for (const peer of peers) {
        const runs = results.get(`${q.name}|${peer.name}`)!;
        const m = {
          matches: runs[0]!.matches,
          first: median(runs.map((r) => r.firstMs)),
          last: median(runs.map((r) => r.lastMs)),
          cpu: median(runs.map((r) => r.cpuMs)),
        };
        byPeer.set(peer.name, m);
        console.log(
          `${q.name.padEnd(22)}  ${peer.name.padEnd(8)}  ${String(m.matches).padStart(7)}  ${`${m.first.toFixed(1)} ms`.padStart(9)}  ${`${m.last.toFixed(0)} ms`.padStart(10)}  ${`${m.cpu.toFixed(0)} ms`.padStart(10)}  ${`${((m.cpu * 1000) / Math.max(1, m.matches)).toFixed(1)} ms`.padStart(16)}`,
        );
      }
      const ours = byPeer.get('inbox');
      const theirs = byPeer.get('Orthanc');
      if (ours && theirs) {
        const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : 'n/a');
        console.log(
          `${''.padEnd(22)}  ${'ratio'.padEnd(8)}  ${''.padStart(7)}  ${ratio(ours.first, theirs.first).padStart(9)}  ${ratio(ours.last, theirs.last).padStart(10)}  ${ratio(ours.cpu, theirs.cpu).padStart(10)}   (inbox / Orthanc)`,
        );
        if (ours.matches !== theirs.matches) console.log(`  note: the two found different counts`);
      }
    }
    console.log('');
    console.log(
      `load average: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}  (${os.cpus().length} CPUs)`,
    );
  } finally {
    for (const peer of peers) await peer.stop();
    if (!args.sets) fs.rmSync(setDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
