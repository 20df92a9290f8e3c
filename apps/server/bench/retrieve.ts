/**
 * Retrieve Study rate: a C-MOVE of a 300-instance CT study (512×512 16-bit, about 0.5 MB per
 * instance, in series of 100) from Orthanc into a group, through the real product path: the
 * destination/search job (C-FIND), the destination/retrieve job (C-MOVE to our AE), our listener
 * receiving Orthanc's sub-association and the ingest pipeline. Prints instances/s and MB/s from the
 * retrieve call to its end (the final C-MOVE response), and the seconds until study/list shows the
 * whole study in the group.
 *
 * Orthanc binds every interface, so it runs in a private network namespace (root only); our server
 * runs in this process and the two reach each other through Unix-socket forwarders (the same as
 * the retrieve tests). Orthanc keeps its default storage settings.
 *
 *   npm run bench:retrieve [-- --count 300 --rounds 2 --database-url postgres://…]
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { buildInstance, newUid } from '../src/dicom/index.js';
import { startServer } from '../src/main.js';
import { createNetworkNamespace } from '../test/support/netns.js';
import { exposeToNamespace } from '../test/support/netns-expose.js';
import { forwardIntoNamespace } from '../test/support/netns-forward.js';
import { startOrthanc, storeWithStorescu } from '../test/support/orthanc.js';

const { values: args } = parseArgs({
  options: {
    count: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '2' },
    'database-url': { type: 'string' },
  },
});
const count = Number(args.count);
const rounds = Number(args.rounds);
const PASSWORD = 'Bench-pass-2026';

/** A study of `count` CT instances in series of 100, under `dir`; answers its UID, MRN and bytes. */
function generate(dir: string): { studyUid: string; mrn: string; bytes: number } {
  fs.mkdirSync(dir, { recursive: true });
  const studyInstanceUid = newUid();
  const mrn = `RETR-${crypto.randomUUID().slice(0, 8)}`;
  let seriesInstanceUid = '';
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    if (i % 100 === 0) seriesInstanceUid = newUid();
    const file = buildInstance({
      patientName: 'RETRIEVE^BENCH',
      patientId: mrn,
      patientSex: 'O',
      patientBirthDate: '19700101',
      studyInstanceUid,
      studyDate: '20260101',
      studyTime: '120000',
      studyDescription: 'retrieve benchmark',
      accessionNumber: mrn,
      referringPhysician: '',
      institutionName: 'Bench',
      seriesInstanceUid,
      seriesNumber: Math.floor(i / 100) + 1,
      seriesDescription: 'bench series',
      modality: 'CT',
      bodyPart: 'HEAD',
      sopInstanceUid: newUid(),
      instanceNumber: (i % 100) + 1,
      rows: 512,
      columns: 512,
    });
    fs.writeFileSync(path.join(dir, `${String(i).padStart(6, '0')}.dcm`), file);
    bytes += file.byteLength;
  }
  return { studyUid: studyInstanceUid, mrn, bytes };
}

async function call(url: string, pathName: string, params: Record<string, string | number>, sid?: string) {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) form.set(k, String(v));
  if (sid) form.set('sid', sid);
  const response = await fetch(`${url}/api/v3/${pathName}`, { method: 'POST', body: form });
  const body = (await response.json()) as Record<string, unknown>;
  if (body['status'] !== 'OK') throw new Error(`${pathName}: ${JSON.stringify(body)}`);
  return body as Record<string, any>;
}

async function until<T>(
  what: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 600_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-bench-retrieve-'));
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
  (line) => {
    if (!line.startsWith('Demo')) console.log(`  server: ${line}`);
  },
);
const ns = await createNetworkNamespace();
try {
  const toUs = await exposeToNamespace(ns, server.dicomPort, 11112);
  const orthanc = await startOrthanc(ns, root, { modalities: { INBOX: ['INBOX', '127.0.0.1', 11112] } });
  const toOrthanc = await forwardIntoNamespace(ns, orthanc.dicomPort);
  const sid = (await call(server.url, 'session/login', { login: 'admin@demo.local', password: PASSWORD }))[
    'sid'
  ] as string;
  const account = (await call(server.url, 'account/list', {}, sid))['accounts'][0].uuid as string;
  const groups = (await call(server.url, 'group/list', { account_id: account }, sid))['groups'] as {
    name: string;
    namespace_id: string;
  }[];
  const cardiology = groups.find((g) => g.name === 'Cardiology')!.namespace_id;
  const destination = (
    await call(
      server.url,
      'destination/add',
      {
        account_id: account,
        name: 'Orthanc',
        aetitle: 'ORTHANC',
        address: '127.0.0.1',
        port: toOrthanc.port,
        can_search: 1,
      },
      sid,
    )
  )['uuid'] as string;
  console.log(
    `server ${server.ctx.db.dialect}, ${os.cpus().length} cores; ${count} CT instances per study, ${rounds} round(s)`,
  );

  for (let round = 1; round <= rounds; round++) {
    const dir = path.join(root, `study-${round}`);
    const study = generate(dir);
    await storeWithStorescu(ns, orthanc, 'INBOX', dir);
    const search = (
      await call(
        server.url,
        'destination/search',
        { uuid: destination, copy_to: cardiology, patientid: study.mrn },
        sid,
      )
    )['uuid'] as string;
    await until(
      () => call(server.url, 'destination/search/get', { uuid: search }, sid),
      (a) => a['state'] !== 'running',
    );
    const started = performance.now();
    await call(
      server.url,
      'destination/retrieve',
      { destination_search_id: search, study_uid: study.studyUid },
      sid,
    );
    const ended = await until(
      () => call(server.url, 'destination/search/get', { uuid: search }, sid),
      (a) => a['retrieves'][0].state !== 'running',
    );
    const moved = (performance.now() - started) / 1000;
    const retrieve = ended['retrieves'][0];
    if (retrieve.state !== 'done') throw new Error(`retrieve ${retrieve.state}: ${retrieve.reason}`);
    await until(
      () => call(server.url, 'study/list', { 'filter.study_uid.equals': study.studyUid }, sid),
      (a) => (a['studies'] as { image_count: number }[])[0]?.image_count === count,
    );
    const listed = (performance.now() - started) / 1000;
    console.log(
      `round ${round}: ${count} instances (${(study.bytes / 1e6).toFixed(0)} MB) retrieved in ${moved.toFixed(2)} s: ` +
        `${(count / moved).toFixed(0)} instances/s, ${(study.bytes / 1e6 / moved).toFixed(1)} MB/s; ` +
        `listed whole after ${listed.toFixed(2)} s`,
    );
  }
  await toOrthanc.close();
  await toUs.close();
} finally {
  await ns.stop();
  await server.stop();
  fs.rmSync(root, { recursive: true, force: true });
}
