import dcmjs from 'dcmjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Forward } from '../support/netns-forward.js';
import type { Orthanc } from '../support/orthanc.js';
import type { OrthancPacs } from '../support/orthanc-pacs.js';
import { startOrthancPacs } from '../support/orthanc-pacs.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { until } from '../support/until.js';
import {
  addDestination,
  demoWorld,
  gatekeeperConfig,
  nominate as nominateTo,
  setGatekeeperConfig,
} from '../support/demo-world.js';
import { smallestStudiesIn } from '../support/studies.js';

const ORDER = {
  patient_name: 'ORDERED^PATIENT',
  patientid: 'MRN-ORDER-1',
  patient_birth_date: '1960-03-04',
  patient_sex: 'F',
  requested_procedure: 'CT CHEST W/O',
  referring_physician: 'HOUSE^GREGORY',
  accession_number: 'ACC-7001',
};

describe.each(DIALECTS)('study/process (Orthanc as the PACS) on %s', (dialect) => {
  let server: TestServer;
  let peer: OrthancPacs;
  let orthanc: Orthanc;
  let toOrthanc: Forward;
  let admin: string;
  let clinician: string;
  let gatekeeper: string;
  let intake: { uuid: string; namespace_id: string };
  let orthancDest: string;
  let otherDest: string;
  const nominees: { uuid: string; study_uid: string }[] = [];

  const db = () => server.ctx.db.kysely;
  const nominate = (study: string) => nominateTo(server.api, clinician, study, intake.uuid);
  const snapshot = async (copy: string) => ({
    study: await db()
      .selectFrom('studies')
      .select(['patient_name', 'patientid', 'must_approve', 'push_status', 'is_locked', 'accession_number'])
      .where('uuid', '=', copy)
      .executeTakeFirstOrThrow(),
    blobs: await db()
      .selectFrom('instances')
      .select('blob_key')
      .where('study_uuid', '=', copy)
      .orderBy('uuid')
      .execute(),
    nomination: await db()
      .selectFrom('nominations')
      .select(['process', 'processed_at'])
      .where('copy_uuid', '=', copy)
      .executeTakeFirstOrThrow(),
    pushes: await db().selectFrom('study_pushes').select('uuid').where('study_uuid', '=', copy).execute(),
  });
  const orthancStudy = async (studyUid: string) => {
    const found = await orthanc.rest<{ ID: string }[]>('POST', '/tools/lookup', studyUid);
    return Array.isArray(found) && found.length ? found[0]!.ID : null;
  };
  const events = async (uuid: string) =>
    (
      await db()
        .selectFrom('audit_events')
        .select(['action', 'detail'])
        .where('object_id', '=', uuid)
        .orderBy('id')
        .execute()
    ).map((e) => ({
      action: e.action,
      detail: e.detail ? (JSON.parse(e.detail) as Record<string, unknown>) : null,
    }));

  beforeAll(async () => {
    server = await startTestServer(dialect, { PUSH_RETRY_MS: '200' });
    peer = await startOrthancPacs('inbox-process-');
    ({ orthanc, toOrthanc } = peer);
    const world = await demoWorld(server, ['admin', 'clinician', 'gatekeeper']);
    ({ admin, clinician, gatekeeper } = world.sid);
    intake = world.groups['PACS Intake']!;
    const add = (name: string, aetitle: string, port: number) =>
      addDestination(server.api, admin, world.account, { name, aetitle, port, can_search: 1, can_push: 1 });
    orthancDest = await add('Main PACS', 'ORTHANC', toOrthanc.port);
    otherDest = await add('Not configured', 'OTHER', toOrthanc.port);
    const config = await gatekeeperConfig(server.api, admin, intake.uuid);
    await setGatekeeperConfig(server.api, admin, intake.uuid, { ...config, destinations: [orthancDest] });
    nominees.push(...(await smallestStudiesIn(server.ctx.db, 'Cardiology', 3)));
  }, 120_000);

  afterAll(async () => {
    await peer?.stop();
    await server?.stop();
  });

  it('refuses bad requests and callers without study_approve and study_push; nothing changes', async () => {
    const copy = await nominate(nominees[0]!.uuid);
    const before = await snapshot(copy);
    const call = (params: Record<string, string>, sid = gatekeeper) =>
      server.api.call('study/process', { uuid: copy, ...params }, sid).then((r) => r.body);
    expect(await call({})).toMatchObject({ error_type: 'MISSING_FIELDS', error_subtype: 'destination_id' });
    expect(await call({ destination_id: orthancDest, patient_birth_date: '04/03/1960' })).toMatchObject({
      error_type: 'INVALID_FIELD',
      error_subtype: 'patient_birth_date',
    });
    expect(await call({ destination_id: orthancDest, patient_sex: 'Q' })).toMatchObject({
      error_type: 'INVALID_FIELD',
      error_subtype: 'patient_sex',
    });
    expect(await call({ destination_id: orthancDest, priority: 'Urgent' })).toMatchObject({
      error_type: 'INVALID_FIELD',
      error_subtype: 'priority',
    });
    expect(await call({ destination_id: orthancDest, patient_birth_date: '29991231' })).toMatchObject({
      error_type: 'INVALID_FIELD',
      error_subtype: 'patient_birth_date',
    });
    // A destination of the account that is not one of this gatekeeper's.
    expect(await call({ destination_id: otherDest })).toMatchObject({
      error_type: 'INVALID_FIELD',
      error_subtype: 'destination_id',
    });
    // The nominator does not see the gatekeeper's copy; an admin without the group's permissions
    // sees it (account admin) but may not decide.
    expect(await call({ destination_id: orthancDest }, clinician)).toMatchObject({ error_type: 'NOT_FOUND' });
    expect(await snapshot(copy)).toEqual(before);
  });

  it('writes the order into the index and the files, queues the push, and the PACS gets the order’s attributes', async () => {
    const copy = (
      await db()
        .selectFrom('nominations')
        .select('copy_uuid')
        .where('study_uuid', '=', nominees[0]!.uuid)
        .executeTakeFirstOrThrow()
    ).copy_uuid!;
    const old = await db()
      .selectFrom('studies')
      .selectAll()
      .where('uuid', '=', copy)
      .executeTakeFirstOrThrow();
    const answer = await server.api.call(
      'study/process',
      { uuid: copy, destination_id: orthancDest, priority: 'Priority', order_id: 'mwl:ACC-7001', ...ORDER },
      gatekeeper,
    );
    expect(answer.body).toMatchObject({
      status: 'OK',
      nomination: { status: 'EVALUATING', push_status: 'I' },
    });
    expect(answer.body.changed).toEqual(
      expect.arrayContaining([
        { field: 'patientid', from: old.patientid, to: 'MRN-ORDER-1' },
        { field: 'patient_birth_date', from: old.patient_birth_date, to: '19600304' },
        { field: 'study_description', from: old.study_description, to: 'CT CHEST W/O' },
      ]),
    );
    const row = await db()
      .selectFrom('studies')
      .selectAll()
      .where('uuid', '=', copy)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      patient_name: 'ORDERED^PATIENT',
      patient_name_key: 'ORDERED^PATIENT',
      patientid: 'MRN-ORDER-1',
      patient_birth_date: '19600304',
      patient_sex: 'F',
      accession_number: 'ACC-7001',
      study_description: 'CT CHEST W/O',
      must_approve: 0,
      is_locked: 0,
    });
    // The nominator's own study keeps its values.
    const nominator = await db()
      .selectFrom('studies')
      .select('patientid')
      .where('uuid', '=', nominees[0]!.uuid)
      .executeTakeFirstOrThrow();
    expect(nominator.patientid).toBe(old.patientid);

    // Queued, then Completed once Orthanc stored every instance.
    const list = async (pushStatus: string) =>
      (
        await server.api.call(
          'study/list',
          { 'filter.phi_namespace.equals': intake.namespace_id, 'filter.study_push_status.in': pushStatus },
          gatekeeper,
        )
      ).body.studies.map((s: { uuid: string }) => s.uuid) as string[];
    const done = await until(
      () => server.api.call('study/nomination', { uuid: nominees[0]!.uuid }, clinician),
      (r) => r.body.nomination.status === 'NOMINATION_SUCCESS' || r.body.nomination.push_status === 'F',
    );
    expect(done.body.nomination).toMatchObject({ status: 'NOMINATION_SUCCESS', push_status: 'S' });
    expect(await list('S')).toContain(copy);
    expect(await list('I,N,P')).not.toContain(copy);

    const id = await orthancStudy(row.study_uid);
    expect(id).not.toBeNull();
    const instances = await orthanc.rest<{ ID: string }[]>('GET', `/studies/${id}/instances`);
    expect(instances.length).toBe(Number(row.image_count));
    const bytes = await orthanc.restBytes(`/instances/${instances[0]!.ID}/file`);
    const ds = dcmjs.data.DicomMessage.readFile(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    ).dict;
    const value = (tag: string) => {
      const v = ds[tag]?.Value?.[0];
      return typeof v === 'object' && v ? (v as { Alphabetic: string }).Alphabetic : v;
    };
    expect(value('00100020')).toBe('MRN-ORDER-1');
    expect(value('00100010')).toBe('ORDERED^PATIENT');
    expect(value('00100030')).toBe('19600304');
    expect(value('00080050')).toBe('ACC-7001');
    const originals = ds['04000561']!.Value as Record<string, { Value: unknown[] }>[];
    const item = originals[originals.length - 1]!;
    expect(item['04000565']!.Value).toEqual(['COERCE']);
    const previous = item['04000550']!.Value[0] as Record<string, { Value: unknown[] }>;
    expect(previous['00100020']!.Value).toEqual([old.patientid]);

    // History: compared with the order, attributes old → new, sent to the destination.
    const copyEvents = await events(copy);
    expect(copyEvents.map((e) => e.action)).toEqual(
      expect.arrayContaining(['ORDER_COMPARE', 'COERCE', 'PROCESS', 'PUSH_END']),
    );
    expect(copyEvents.find((e) => e.action === 'ORDER_COMPARE')!.detail).toMatchObject({
      order_id: 'mwl:ACC-7001',
    });
    expect(copyEvents.find((e) => e.action === 'PROCESS')!.detail).toMatchObject({
      destination_name: 'Main PACS',
      priority: 'Priority',
      study_uid_checked: true,
    });
    expect((await events(nominees[0]!.uuid)).map((e) => e.action)).toContain('PROCESS');
    const fields = await db()
      .selectFrom('study_customfields')
      .select(['name', 'value'])
      .where('study_uuid', '=', copy)
      .execute();
    expect(Object.fromEntries(fields.map((f) => [f.name, f.value]))).toMatchObject({
      priority: 'Priority',
      push_destination: 'Main PACS',
      order_id: 'mwl:ACC-7001',
    });

    // A second time: ALREADY_PROCESSED, nothing new.
    const before = await snapshot(copy);
    const again = await server.api.call(
      'study/process',
      { uuid: copy, destination_id: orthancDest },
      gatekeeper,
    );
    expect(again.body).toMatchObject({ error_type: 'ALREADY_PROCESSED' });
    expect(await snapshot(copy)).toEqual(before);
    // Nor can it be rejected now.
    const reject = await server.api.call(
      'study/reject',
      { uuid: copy, reason: 'r', message: 'm' },
      gatekeeper,
    );
    expect(reject.body).toMatchObject({ error_type: 'ALREADY_PROCESSED' });
  }, 120_000);

  it('stops with a clear reason when the PACS holds the Study Instance UID under another patient', async () => {
    const study = nominees[1]!;
    // The PACS already got this exam, under its original patient.
    const pushed = await server.api.call(
      'study/push',
      { uuid: study.uuid, destination_id: orthancDest },
      admin,
    );
    expect(pushed.body.status).toBe('OK');
    await until(
      () => orthancStudy(study.study_uid),
      (id) => id !== null,
    );
    const copy = await nominate(study.uuid);
    const before = await snapshot(copy);
    const answer = await server.api.call(
      'study/process',
      { uuid: copy, destination_id: orthancDest, ...ORDER, patientid: 'MRN-SOMEONE-ELSE' },
      gatekeeper,
    );
    expect(answer.body).toMatchObject({ error_type: 'STUDY_UID_CONFLICT' });
    expect(String(answer.body.error_subtype)).toContain(
      'Main PACS already holds this study under another patient',
    );
    expect(await snapshot(copy)).toEqual(before);
  }, 120_000);

  it('finishes a processing the server did not (stopped after accepting): once, whatever runs it again', async () => {
    const copy = await nominate(nominees[2]!.uuid);
    const service = server.ctx.services.nominationProcess;
    const editor = (
      service as unknown as { deps: { fileEditor: { apply: (...a: unknown[]) => Promise<unknown> } } }
    ).deps.fileEditor;
    const apply = editor.apply.bind(editor);
    // The disk fails mid-way: the call errs, what was asked stays for the recovery job.
    editor.apply = () => Promise.reject(new Error('disk gone'));
    const failed = await server.api.call(
      'study/process',
      { uuid: copy, destination_id: orthancDest, ...ORDER, patientid: 'MRN-ORDER-3' },
      gatekeeper,
    );
    editor.apply = apply;
    expect(failed.status).toBe(500);
    const half = await snapshot(copy);
    expect(half.study).toMatchObject({
      must_approve: 1,
      is_locked: 1,
      patientid: expect.not.stringMatching('MRN-ORDER-3'),
    });
    expect(JSON.parse(half.nomination.process!)).toMatchObject({ destination_id: orthancDest });
    expect(half.pushes).toEqual([]);
    const recovery = await db()
      .selectFrom('jobs')
      .select(['kind', 'payload'])
      .where('kind', '=', 'nomination.process')
      .execute();
    expect(recovery.map((j) => j.kind)).toContain('nomination.process');
    // Another gatekeeper's try now: ALREADY_PROCESSED (it is being processed).
    const meanwhile = await server.api.call(
      'study/process',
      { uuid: copy, destination_id: orthancDest },
      gatekeeper,
    );
    expect(meanwhile.body).toMatchObject({ error_type: 'ALREADY_PROCESSED' });

    const nomination = (
      await db()
        .selectFrom('nominations')
        .select('uuid')
        .where('copy_uuid', '=', copy)
        .executeTakeFirstOrThrow()
    ).uuid;
    const [first, second] = await Promise.all([service.finish(nomination), service.finish(nomination)]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    expect(await service.finish(nomination)).toBeNull();
    const after = await snapshot(copy);
    expect(after.study).toMatchObject({ must_approve: 0, is_locked: 0, patientid: 'MRN-ORDER-3' });
    expect(after.pushes).toHaveLength(1);
    expect(after.nomination.processed_at).not.toBeNull();
  }, 120_000);
});
