import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

const CT_SMALL = '/usr/lib/python3/dist-packages/pydicom/data/test_files/CT_small.dcm';
const CT_STUDY_UID = '1.3.6.1.4.1.5962.1.2.1.20040119072730.12322';

/**
 * The calls Ambra's uploader makes around its files (study/add, then the files, then study/sync),
 * study/timing/event, the storage `schema` of a study, and user/set with nothing to set.
 */
describe.each(DIALECTS)('upload companion calls on %s', (dialect) => {
  let server: TestServer;
  let clinician: string;
  let viewer: string;
  let emergency: string;

  const listed = async (uid: string) =>
    (await server.api.call('study/list', { 'filter.study_uid.equals': uid }, clinician)).body.studies as {
      uuid: string;
      study_status: string;
      patient_name: string;
    }[];

  beforeAll(async () => {
    server = await startTestServer(dialect);
    clinician = await server.api.login('clinician@demo.local');
    viewer = await server.api.login('viewer@demo.local');
    emergency = await server.api.namespaceOf(clinician, 'Emergency');
  });
  afterAll(() => server?.stop());

  it('study/add makes an unlisted study the upload fills; study/sync lists it, INCOMPLETE then NEW', async () => {
    const added = await server.api.call(
      'study/add',
      { storage_namespace: emergency, study_uid: CT_STUDY_UID, patient_name: 'Typed^Name' },
      clinician,
    );
    expect(added.body).toMatchObject({ status: 'OK', study_uid: CT_STUDY_UID, created: 1 });
    const uuid = added.body.uuid as string;
    expect(await listed(CT_STUDY_UID)).toEqual([]);
    const again = await server.api.call(
      'study/add',
      { phi_namespace: emergency, study_uid: CT_STUDY_UID },
      clinician,
    );
    expect(again.body).toMatchObject({ uuid, created: 0 });
    // Nothing in it yet: an upload that failed before its first file leaves no study to find, so
    // the wizard still offers the exam (study/exists) instead of calling it already uploaded.
    const exists = async () =>
      (await server.api.call('study/exists', { studyUID: CT_STUDY_UID }, clinician)).body.exists as number;
    expect(await exists()).toBe(0);

    const stored = await server.api.upload(clinician, emergency, fs.readFileSync(CT_SMALL));
    expect(stored.status).toBe(202);
    expect(stored.body.study_uuid).toBe(uuid);
    // Still filling: not listed, but its first file's attributes replaced the typed ones.
    expect(await listed(CT_STUDY_UID)).toEqual([]);
    expect(await exists()).toBe(1);
    const study = await server.api.call('study/get', { uuid }, clinician);
    expect(study.body).toMatchObject({ patient_name: 'CompressedSamples^CT1', image_count: 1 });

    const short = await server.api.call('study/sync', { uuid, image_count: 2 }, clinician);
    expect(short.body).toMatchObject({
      status: 'OK',
      image_count: 1,
      images_sent: 2,
      study_status: 'INCOMPLETE',
    });
    expect((await listed(CT_STUDY_UID)).map((s) => s.study_status)).toEqual(['INCOMPLETE']);
    const whole = await server.api.call('study/sync', { uuid, image_count: 1 }, clinician);
    expect(whole.body).toMatchObject({ image_count: 1, study_status: 'NEW' });
    expect((await listed(CT_STUDY_UID)).map((s) => s.study_status)).toEqual(['NEW']);
    // A listed study keeps its state whatever a later sync says.
    const late = await server.api.call('study/sync', { uuid, image_count: 5 }, clinician);
    expect(late.body.study_status).toBe('NEW');
  });

  it('refuses a bad study/add or study/sync with a clear error and creates nothing', async () => {
    const count = async () =>
      Number(
        (
          await server.ctx.db.kysely
            .selectFrom('studies')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const badUid = await server.api.call(
      'study/add',
      { storage_namespace: emergency, study_uid: '1.2.x' },
      clinician,
    );
    expect(badUid.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'study_uid' });
    const noGroup = await server.api.call('study/add', { study_uid: '1.2.3' }, clinician);
    expect(noGroup.body).toMatchObject({ error_type: 'MISSING_FIELDS' });
    const badDate = await server.api.call(
      'study/add',
      { storage_namespace: emergency, study_uid: '1.2.3.4', study_date: 'yesterday' },
      clinician,
    );
    expect(badDate.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'study_date' });
    const noUpload = await server.api.call(
      'study/add',
      { storage_namespace: emergency, study_uid: '1.2.3.5' },
      viewer,
    );
    expect(noUpload.body).toMatchObject({ error_type: 'NOT_PERMITTED' });
    expect(await count()).toBe(before);

    const some = (await server.api.call('study/list', { 'page.rows': 1 }, clinician)).body.studies[0].uuid;
    const badCount = await server.api.call('study/sync', { uuid: some, image_count: -1 }, clinician);
    expect(badCount.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'image_count' });
    const unknown = await server.api.call('study/sync', { uuid: 'no-such-study', image_count: 1 }, clinician);
    expect(unknown.body).toMatchObject({ error_type: 'NOT_FOUND' });
  });

  it("answers a study's schema: its series with their images, and its attachments", async () => {
    const uuid = (await listed(CT_STUDY_UID))[0]!.uuid;
    const response = await server.api.get(`storage/study/${emergency}/${CT_STUDY_UID}/schema`, {
      sid: clinician,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'OK', uuid, study_uid: CT_STUDY_UID, image_count: 1 });
    expect(response.body.series).toHaveLength(1);
    expect(response.body.series[0]).toMatchObject({ modality: 'CT', image_count: 1 });
    expect(response.body.series[0].images[0]).toMatchObject({
      sop_class_uid: '1.2.840.10008.5.1.4.1.1.2',
      rows: 128,
      columns: 128,
    });
    expect(response.body.attachments).toEqual([]);
    const other = await server.api.get(`storage/study/${emergency}/1.2.3.999/schema`, { sid: clinician });
    expect(other.body).toMatchObject({ error_type: 'NOT_FOUND' });
  });

  it('records a timing event in the study history and refuses a bad event name', async () => {
    const uuid = (await listed(CT_STUDY_UID))[0]!.uuid;
    const ok = await server.api.call(
      'study/timing/event',
      { uuid, event: 'viewer_open', timing: 850 },
      clinician,
    );
    expect(ok.body.status).toBe('OK');
    const event = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['action', 'detail'])
      .where('object_id', '=', uuid)
      .where('action', '=', 'STUDY_TIMING')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(String(event.detail))).toMatchObject({ event: 'viewer_open', timing: 850 });
    const bad = await server.api.call('study/timing/event', { uuid, event: 'no spaces <here>' }, clinician);
    expect(bad.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'event' });
  });

  it('answers USER_INFO_NOT_SET to a user/set that names no profile field', async () => {
    const before = (await server.api.call('user/get', {}, clinician)).body;
    const empty = await server.api.call('user/set', {}, clinician);
    expect(empty.body.error_type).toBe('USER_INFO_NOT_SET');
    expect((await server.api.call('user/get', {}, clinician)).body).toEqual(before);
  });
});
