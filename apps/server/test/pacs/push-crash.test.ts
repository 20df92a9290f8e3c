import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/dialect.js';
import { buildInstance, newUid } from '../../src/dicom/index.js';
import type { ChildServer } from '../support/child-server.js';
import { SERVER_MAIN, startChildServer } from '../support/child-server.js';
import type { NetworkNamespace } from '../support/netns.js';
import { createNetworkNamespace } from '../support/netns.js';
import type { Forward } from '../support/netns-forward.js';
import { forwardIntoNamespace } from '../support/netns-forward.js';
import type { Orthanc } from '../support/orthanc.js';
import { startOrthanc } from '../support/orthanc.js';
import { addDestination, firstAccountOf } from '../support/demo-world.js';
import { sendFolder } from '../support/storescu.js';
import { ApiClient, createPgDatabase, DIALECTS } from '../support/test-server.js';
import { until } from '../support/until.js';

/**
 * A push outlives the process running it: the built server pushing a large study to Orthanc is
 * killed with SIGKILL part-way; a second process on the same data (another PROCESS_ID: the same
 * process restarted would take its own job back at once, see process-crash.test.ts) takes the job
 * over once the dead one's lease runs out, sends what was not stored yet, and the attempt ends S with Orthanc holding
 * every instance of the study once.
 */

const INSTANCES = 160;
/** Half a megabyte each (512×512, 16 bits), so the push lasts long enough to be cut. */
const SIZE = 512;
const KILL_AFTER = 20;
const LEASE_MS = 3_000;

/** A one-series CT study of INSTANCES files; answers their SOP Instance UIDs. */
function writeStudy(dir: string, patientId: string): { studyUid: string; sops: string[] } {
  fs.mkdirSync(dir, { recursive: true });
  const studyUid = newUid();
  const seriesUid = newUid();
  const sops: string[] = [];
  for (let i = 0; i < INSTANCES; i++) {
    const sopInstanceUid = newUid();
    sops.push(sopInstanceUid);
    fs.writeFileSync(
      path.join(dir, `${String(i).padStart(4, '0')}.dcm`),
      buildInstance({
        patientName: 'PUSH^CRASH',
        patientId,
        patientSex: 'O',
        patientBirthDate: '19700101',
        studyInstanceUid: studyUid,
        studyDate: '20260101',
        studyTime: '120000',
        studyDescription: 'push crash',
        accessionNumber: 'PUSHCRASH',
        referringPhysician: '',
        institutionName: 'Test',
        seriesDescription: 'push series',
        modality: 'CT',
        bodyPart: 'CHEST',
        seriesInstanceUid: seriesUid,
        seriesNumber: 1,
        sopInstanceUid,
        instanceNumber: i + 1,
        rows: SIZE,
        columns: SIZE,
      }),
    );
  }
  return { studyUid, sops };
}

interface Attempt {
  uuid: string;
  status: string;
  reason: string | null;
  image_count: number;
  images_sent: number;
}

describe.each(DIALECTS)('A push survives SIGKILL of its server on %s', (dialect) => {
  let work: string;
  let dataDir: string;
  let env: Record<string, string>;
  let ns: NetworkNamespace;
  let orthanc: Orthanc;
  let toOrthanc: Forward;
  const servers: ChildServer[] = [];

  beforeAll(async () => {
    expect(fs.existsSync(SERVER_MAIN), 'run npm run build first').toBe(true);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-push-crash-'));
    dataDir = path.join(work, 'data');
    env = {
      ...(dialect === 'postgres' ? { DATABASE_URL: await createPgDatabase() } : {}),
      JOB_LEASE_MS: String(LEASE_MS),
      PUSH_RETRY_MS: '200',
    };
    ns = await createNetworkNamespace();
    orthanc = await startOrthanc(ns, path.join(work, 'pacs'), {
      modalities: { INBOX: ['INBOX', '127.0.0.1', 11112] },
    });
    toOrthanc = await forwardIntoNamespace(ns, orthanc.dicomPort);
  }, 120_000);

  afterAll(async () => {
    for (const server of servers) await server.kill();
    await toOrthanc?.close();
    await ns?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('is taken over by another process after the lease: every instance at Orthanc once, the attempt S', async () => {
    const { studyUid, sops } = writeStudy(path.join(work, 'study'), `PUSH-CRASH-${dialect}`);
    const first = await startChildServer(dataDir, env);
    servers.push(first);
    expect((await sendFolder(path.join(work, 'study'), first.dicomPort)).code).toBe(0);

    const api = new ApiClient(first.url);
    const admin = await api.login('admin@demo.local');
    const account = await firstAccountOf(api, admin);
    const destination = await addDestination(api, admin, account, {
      name: 'Orthanc',
      aetitle: 'ORTHANC',
      port: toOrthanc.port,
      can_push: 1,
    });
    const study = (await api.call('study/list', { 'filter.study_uid.equals': studyUid }, admin)).body
      .studies[0] as { uuid: string; image_count: number };
    expect(study.image_count).toBe(INSTANCES);
    const started = await api.call('study/push', { uuid: study.uuid, destination_id: destination }, admin);
    expect(started.body).toMatchObject({ status: 'OK', push: { status: 'I', image_count: INSTANCES } });

    // Killed part-way: some instances stored, most not.
    const pushes = (client: ApiClient, sid: string) =>
      client.call('study/push/list', { uuid: study.uuid }, sid).then((a) => a.body.pushes as Attempt[]);
    // Polled every 50 ms: the kill must come while the push is still under way.
    await until(
      () => pushes(api, admin),
      (list) => list[0]!.images_sent >= KILL_AFTER,
      60_000,
      50,
    );
    await first.kill();
    const db = openDatabase({ dataDir, databaseUrl: env.DATABASE_URL });
    let storedAtKill: number;
    try {
      storedAtKill = (
        await db.kysely
          .selectFrom('study_push_instances')
          .select('sop_instance_uid')
          .where('state', '=', 'stored')
          .execute()
      ).length;
    } finally {
      await db.close();
    }
    expect(storedAtKill).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(storedAtKill).toBeLessThan(INSTANCES);

    // A second process on the same data: it takes the job over once the lease has run out.
    const second = await startChildServer(dataDir, { ...env, PROCESS_ID: 'another-process' });
    servers.push(second);
    const api2 = new ApiClient(second.url);
    const admin2 = await api2.login('admin@demo.local');
    const list = await until(
      () => pushes(api2, admin2),
      (l) => !['I', 'N'].includes(l[0]!.status),
      90_000,
    );
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      uuid: started.body.push.uuid,
      status: 'S',
      reason: null,
      image_count: INSTANCES,
      images_sent: INSTANCES,
    });

    // Orthanc holds the study, every instance once.
    const [found] = await orthanc.rest<{ ID: string }[]>('POST', '/tools/lookup', studyUid);
    const held = await orthanc.rest<{ MainDicomTags: { SOPInstanceUID: string } }[]>(
      'GET',
      `/studies/${found!.ID}/instances`,
    );
    const heldSops = held.map((i) => i.MainDicomTags.SOPInstanceUID);
    expect(heldSops).toHaveLength(INSTANCES);
    expect(new Set(heldSops)).toEqual(new Set(sops));

    // One job, claimed twice (the dead process, then the one that finished it).
    const check = openDatabase({ dataDir, databaseUrl: env.DATABASE_URL });
    try {
      const jobs = await check.kysely
        .selectFrom('jobs')
        .select(['status', 'attempts'])
        .where('kind', '=', 'study.push')
        .execute();
      expect(jobs).toEqual([{ status: 'done', attempts: 2 }]);
    } finally {
      await check.close();
    }
    await second.stop();
  }, 240_000);
});
