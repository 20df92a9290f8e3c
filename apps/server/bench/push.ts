/**
 * Push rate to a PACS: our DICOM client (`src/dimse/client`) against dcmtk's storescu, sending the
 * same files to the same Orthanc in the same run, alternating, so disk and machine load weigh on
 * both alike. Two sets, as in issue 15:
 *   - a 300-instance CT study (512×512 16-bit, about 0.5 MB per instance),
 *   - 2,000 small instances (100×136 16-bit, about 28 KB each).
 * For each set and round: storescu over one association, ours over one association, ours over N
 * concurrent associations; Orthanc's store is emptied before each send. Prints instances/s, MB/s
 * and our rate as a multiple of storescu's (target: ≥ 1.0× on one association, more with several).
 *
 * Orthanc (default storage settings, TCP_NODELAY=1) binds every interface, so it runs in a private
 * network namespace, and both senders run inside it too (root only).
 *
 *   npm run bench:push [-- --ct 300 --small 2000 --associations 4 --rounds 2 --sets DIR]
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { buildInstance, newUid } from '../src/dicom/index.js';
import { createNetworkNamespace } from '../test/support/netns.js';
import { startOrthanc } from '../test/support/orthanc.js';

const execFileAsync = promisify(execFile);

const { values: args } = parseArgs({
  options: {
    ct: { type: 'string', default: '300' },
    small: { type: 'string', default: '2000' },
    associations: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '2' },
    sets: { type: 'string' },
  },
});

interface SetSpec {
  name: string;
  count: number;
  rows: number;
  columns: number;
}

/** One study of `count` instances in series of 100; reused when `dir` already holds that many. */
function generate(dir: string, set: SetSpec): number {
  const existing = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  if (existing.length === set.count) {
    return existing.reduce((sum, name) => sum + fs.statSync(path.join(dir, name)).size, 0);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const studyInstanceUid = newUid();
  let seriesInstanceUid = '';
  let bytes = 0;
  for (let i = 0; i < set.count; i++) {
    if (i % 100 === 0) seriesInstanceUid = newUid();
    const file = buildInstance({
      patientName: `PUSH^${set.name.toUpperCase()}`,
      patientId: `PUSH-${set.name}`,
      patientSex: 'O',
      patientBirthDate: '19700101',
      studyInstanceUid,
      studyDate: '20260101',
      studyTime: '120000',
      studyDescription: 'push benchmark',
      accessionNumber: `PUSH${set.count}`,
      referringPhysician: '',
      institutionName: 'Bench',
      seriesInstanceUid,
      seriesNumber: Math.floor(i / 100) + 1,
      seriesDescription: 'bench series',
      modality: 'CT',
      bodyPart: 'HEAD',
      sopInstanceUid: newUid(),
      instanceNumber: (i % 100) + 1,
      rows: set.rows,
      columns: set.columns,
    });
    fs.writeFileSync(path.join(dir, `${String(i).padStart(6, '0')}.dcm`), file);
    bytes += file.byteLength;
  }
  return bytes;
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-bench-push-'));
const setsDir = args.sets ?? path.join(root, 'sets');
const sets: SetSpec[] = [
  { name: 'ct', count: Number(args.ct), rows: 512, columns: 512 },
  { name: 'small', count: Number(args.small), rows: 100, columns: 136 },
].filter((s) => s.count > 0);
const lanes = Number(args.associations);
const rounds = Number(args.rounds);

const ns = await createNetworkNamespace();
try {
  const orthanc = await startOrthanc(ns, root, { modalities: { INBOX: ['INBOX', '127.0.0.1', 11112] } });
  const { stdout: version } = await execFileAsync('Orthanc', ['--version']);
  console.log(
    `Orthanc ${version.split('\n')[0]!.trim()}, ${os.cpus().length} cores, ${lanes} associations for ours ×N`,
  );
  const pushClient = path.resolve(import.meta.dirname, 'push-client.ts');

  const emptyOrthanc = async () => {
    for (const id of await orthanc.rest<string[]>('GET', '/patients'))
      await orthanc.rest('DELETE', `/patients/${id}`);
  };
  const count = async () => (await orthanc.rest<string[]>('GET', '/instances')).length;

  const storescu = async (dir: string) => {
    const started = performance.now();
    await ns.run('env', [
      'TCP_NODELAY=1',
      'storescu',
      '-aet',
      'INBOX',
      '-aec',
      orthanc.aeTitle,
      '+sd',
      '-nh',
      '127.0.0.1',
      String(orthanc.dicomPort),
      dir,
    ]);
    return (performance.now() - started) / 1000;
  };
  const ours = async (dir: string, associations: number) => {
    const out = await ns.run('env', [
      'TCP_NODELAY=1',
      // One node process with the TypeScript loader (the tsx CLI would add a parent process).
      process.execPath,
      '--conditions=source',
      '--import',
      'tsx',
      pushClient,
      dir,
      String(orthanc.dicomPort),
      orthanc.aeTitle,
      String(associations),
    ]);
    const result = JSON.parse(out.trim().split('\n').at(-1)!) as {
      seconds: number;
      cpuSeconds: number;
      success: number;
      reasons: string[];
    };
    cpuMs.push((result.cpuSeconds * 1000) / result.success);
    if (result.success === 0) throw new Error(`our client stored nothing: ${result.reasons.join('; ')}`);
    return result.seconds;
  };

  /** Our client's CPU time per instance, each run (process total: start-up and file scan included). */
  const cpuMs: number[] = [];
  for (const set of sets) {
    const dir = path.join(setsDir, set.name);
    const bytes = generate(dir, set);
    console.log(`\n${set.name}: ${set.count} instances, ${(bytes / 1e6).toFixed(1)} MB`);
    const best = { storescu: Infinity, ours1: Infinity, oursN: Infinity };
    for (let round = 1; round <= rounds; round++) {
      const line: string[] = [];
      for (const [key, run] of [
        ['storescu', () => storescu(dir)],
        ['ours1', () => ours(dir, 1)],
        ['oursN', () => ours(dir, lanes)],
      ] as const) {
        await emptyOrthanc();
        const seconds = await run();
        const stored = await count();
        if (stored !== set.count)
          throw new Error(`${key}: Orthanc holds ${stored} of ${set.count} instances`);
        best[key] = Math.min(best[key], seconds);
        line.push(`${key} ${(set.count / seconds).toFixed(0)}/s`);
      }
      console.log(
        `  round ${round}: ${line.join(', ')} (our CPU ${cpuMs
          .splice(0)
          .map((ms) => ms.toFixed(2))
          .join(' / ')} ms per instance)`,
      );
    }
    const rate = (seconds: number) =>
      `${(set.count / seconds).toFixed(0)} instances/s, ${(bytes / 1e6 / seconds).toFixed(1)} MB/s`;
    console.log(`  storescu, 1 association:      ${rate(best.storescu)}`);
    console.log(
      `  ours, 1 association:          ${rate(best.ours1)}  (${(best.storescu / best.ours1).toFixed(2)}× storescu)`,
    );
    console.log(
      `  ours, ${lanes} associations:${' '.repeat(Math.max(0, 9 - String(lanes).length))}${rate(best.oursN)}  (${(best.storescu / best.oursN).toFixed(2)}× storescu)`,
    );
  }
} finally {
  await ns.stop();
  fs.rmSync(root, { recursive: true, force: true });
}
