import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/dialect.js';
import { buildInstance, newUid } from '../../src/dicom/index.js';
import type { ChildServer } from '../support/child-server.js';
import { SERVER_MAIN, freePort, startChildServer } from '../support/child-server.js';
import {
  addDestination,
  firstAccountOf,
  gatekeeperConfig,
  nominate,
  setGatekeeperConfig,
} from '../support/demo-world.js';
import type { TestS3 } from '../support/s3-server.js';
import { startTestS3 } from '../support/s3-server.js';
import type { StallProxy } from '../support/stall-proxy.js';
import { startStallProxy } from '../support/stall-proxy.js';
import { sendFolder } from '../support/storescu.js';
import { ApiClient, createPgDatabase, DIALECTS } from '../support/test-server.js';
import { until } from '../support/until.js';

/**
 * study/process cut by SIGKILL (decision 0032): the built server, its blobs in S3 behind a relay the
 * test makes fall silent, is killed while it writes the order's attributes into the files. Until
 * then the exam reads PROCESSING (not IS_NOMINATED, which would invite a process refused as
 * ALREADY_PROCESSED). Restarted on the same data, the process gives back at once the recovery job its
 * previous run held and finishes the processing: well before the job's due time (5 min) or any
 * lease, while a job another process holds is left alone.
 */

const INSTANCES = 12;
/** Far above what the test waits for the restarted process to finish. */
const LEASE_MS = 120_000;

function writeStudy(dir: string, patientId: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const studyUid = newUid();
  const seriesUid = newUid();
  for (let i = 0; i < INSTANCES; i++) {
    fs.writeFileSync(
      path.join(dir, `${String(i).padStart(4, '0')}.dcm`),
      buildInstance({
        patientName: 'PROCESS^CRASH',
        patientId,
        patientSex: 'O',
        patientBirthDate: '19700101',
        studyInstanceUid: studyUid,
        studyDate: '20260101',
        studyTime: '120000',
        studyDescription: 'process crash',
        accessionNumber: 'PROCCRASH',
        referringPhysician: '',
        institutionName: 'Test',
        seriesDescription: 'series',
        modality: 'CT',
        bodyPart: 'CHEST',
        seriesInstanceUid: seriesUid,
        seriesNumber: 1,
        sopInstanceUid: newUid(),
        instanceNumber: i + 1,
        rows: 8,
        columns: 8,
      }),
    );
  }
  return studyUid;
}

describe.each(DIALECTS)('study/process survives SIGKILL of its server on %s', (dialect) => {
  let work: string;
  let dataDir: string;
  let s3: TestS3;
  let relay: StallProxy;
  let env: Record<string, string>;
  const servers: ChildServer[] = [];

  beforeAll(async () => {
    expect(fs.existsSync(SERVER_MAIN), 'run npm run build first').toBe(true);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-process-crash-'));
    dataDir = path.join(work, 'data');
    s3 = await startTestS3();
    relay = await startStallProxy(Number(new URL(s3.env.S3_ENDPOINT!).port));
    env = {
      ...s3.env,
      S3_ENDPOINT: `http://127.0.0.1:${relay.port}`,
      JOB_LEASE_MS: String(LEASE_MS),
      // One process named as in a cluster, the other as the default single process.
      ...(dialect === 'postgres' ? { DATABASE_URL: await createPgDatabase(), PROCESS_ID: 'node-a' } : {}),
    };
  }, 60_000);

  afterAll(async () => {
    for (const server of servers) await server.kill();
    await relay?.close();
    await s3?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('reads PROCESSING while cut, and is finished at once by the restarted process', async () => {
    const first = await startChildServer(dataDir, env);
    servers.push(first);
    const studyUid = writeStudy(path.join(work, 'study'), `PROC-CRASH-${dialect}`);
    expect((await sendFolder(path.join(work, 'study'), first.dicomPort)).code).toBe(0);

    const api = new ApiClient(first.url);
    const admin = await api.login('admin@demo.local');
    const clinician = await api.login('clinician@demo.local');
    const gatekeeper = await api.login('gatekeeper@demo.local');
    const account = await firstAccountOf(api, admin);
    const intake = (await api.groups(admin)).find((g) => g.name === 'PACS Intake')!;
    // A destination that takes pushes and no searches (nothing is asked before acceptance).
    const destination = await addDestination(api, admin, account, {
      name: 'Main PACS',
      aetitle: 'NOWHERE',
      port: await freePort(),
      can_push: 1,
    });
    const config = await gatekeeperConfig(api, admin, intake.uuid);
    await setGatekeeperConfig(api, admin, intake.uuid, { ...config, destinations: [destination] });
    const study = await until(
      () =>
        api
          .call('study/list', { 'filter.study_uid.equals': studyUid }, clinician)
          .then((a) => a.body.studies as { uuid: string; image_count: number }[]),
      (s) => s[0]?.image_count === INSTANCES,
    );
    const copy = await nominate(api, clinician, study[0]!.uuid, intake.uuid);
    const statusOf = (client: ApiClient, uuid: string, sid: string) =>
      client
        .call('study/nomination', { uuid }, sid)
        .then((a) => a.body.nomination as Record<string, unknown>);
    expect(await statusOf(api, copy, gatekeeper)).toMatchObject({ status: 'IS_NOMINATED' });

    // The blob store falls silent: the call is accepted, then hangs writing the files.
    relay.stall();
    const processing = api
      .call(
        'study/process',
        { uuid: copy, destination_id: destination, patient_name: 'ORDERED^PATIENT', patientid: 'MRN-9' },
        gatekeeper,
      )
      .catch(() => undefined);
    await until(
      () => statusOf(api, copy, gatekeeper),
      (n) => n['status'] !== 'IS_NOMINATED',
      20_000,
      50,
    );
    // The gatekeeper and the nominator both read PROCESSING; processing again is refused.
    expect(await statusOf(api, copy, gatekeeper)).toMatchObject({ status: 'PROCESSING', push_status: null });
    expect(await statusOf(api, study[0]!.uuid, clinician)).toMatchObject({ status: 'PROCESSING' });
    expect(
      (await api.call('study/process', { uuid: copy, destination_id: destination }, gatekeeper)).body,
    ).toMatchObject({ error_type: 'ALREADY_PROCESSED' });

    await first.kill();
    await processing;
    relay.resume();

    const db = openDatabase({ dataDir, databaseUrl: env.DATABASE_URL });
    let recovery: { id: number; status: string; run_at: number; locked_by: string | null };
    let foreignId: number;
    const now = Date.now();
    try {
      const jobs = await db.kysely
        .selectFrom('jobs')
        .select(['id', 'status', 'run_at', 'locked_by'])
        .where('kind', '=', 'nomination.process')
        .execute();
      expect(jobs).toHaveLength(1);
      recovery = jobs[0]!;
      // Held by the dead run, due only minutes from now.
      expect(recovery).toMatchObject({ status: 'queued' });
      expect(recovery.locked_by).toMatch(dialect === 'postgres' ? /^node-a\// : /\//);
      expect(Number(recovery.run_at)).toBeGreaterThan(now + 60_000);
      // A job another live process holds: the restart must not take it.
      foreignId = Number(
        (
          await db.kysely
            .insertInto('jobs')
            .values({
              kind: 'nomination.process',
              payload: JSON.stringify({ nomination: '00000000-0000-4000-8000-000000000000' }),
              status: 'running',
              attempts: 1,
              run_at: now - 1_000,
              locked_until: now + 10 * 60_000,
              locked_by: 'node-b/another-run',
              dedupe_key: `foreign:${dialect}`,
              created: now,
              updated: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    } finally {
      await db.close();
    }

    // Restarted on the same data: finished at once, not when the job comes due or a lease runs out.
    const second = await startChildServer(dataDir, env);
    servers.push(second);
    const upAt = Date.now();
    const api2 = new ApiClient(second.url);
    const gatekeeper2 = await api2.login('gatekeeper@demo.local');
    const done = await until(
      () => statusOf(api2, copy, gatekeeper2),
      (n) => n['status'] !== 'PROCESSING',
      30_000,
      100,
    );
    expect(Date.now() - upAt).toBeLessThan(15_000);
    expect(done).toMatchObject({ status: 'EVALUATING' });
    expect(done['push_status']).not.toBeNull();
    expect(second.output()).toMatch(/1 job\(s\) held by the previous run .* resumed/);
    // As documented: once processed, processing again answers ALREADY_PROCESSED.
    expect(
      (await api2.call('study/process', { uuid: copy, destination_id: destination }, gatekeeper2)).body,
    ).toMatchObject({ error_type: 'ALREADY_PROCESSED' });
    const listed = await api2.call('study/list', { 'filter.study_uid.equals': studyUid }, gatekeeper2);
    expect(listed.body.studies).toEqual([
      expect.objectContaining({ uuid: copy, patient_name: 'ORDERED^PATIENT', patientid: 'MRN-9' }),
    ]);

    const check = openDatabase({ dataDir, databaseUrl: env.DATABASE_URL });
    try {
      const jobs = await check.kysely
        .selectFrom('jobs')
        .select(['id', 'status', 'attempts', 'locked_until', 'locked_by'])
        .where('id', 'in', [recovery.id, foreignId])
        .orderBy('id')
        .execute();
      expect(jobs.map((j) => ({ ...j, id: Number(j.id), attempts: Number(j.attempts) }))).toEqual([
        { id: recovery.id, status: 'done', attempts: 1, locked_until: null, locked_by: null },
        {
          id: foreignId,
          status: 'running',
          attempts: 1,
          locked_until: expect.anything(),
          locked_by: 'node-b/another-run',
        },
      ]);
      expect(Number(jobs[1]!.locked_until)).toBe(now + 10 * 60_000);
    } finally {
      await check.close();
    }
    await second.stop();
  }, 180_000);
});
