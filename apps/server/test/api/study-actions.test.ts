import { MESSAGES } from '@imaging-inbox/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountIdOf } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

describe.each(DIALECTS)('study get, exists, set and lock on %s', (dialect) => {
  let server: TestServer;
  let clinician: string;
  let viewer: string;
  let emergencyStudy: { uuid: string; study_uid: string; account_id: string; patientid: string };
  let intakeStudy: { uuid: string; study_uid: string };
  let partnerAccount: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    clinician = await server.api.login('clinician@demo.local');
    viewer = await server.api.login('viewer@demo.local');
    const db = server.ctx.db.kysely;
    emergencyStudy = await db
      .selectFrom('studies')
      .innerJoin('groups', 'groups.namespace_id', 'studies.namespace_id')
      .select(['studies.uuid', 'studies.study_uid', 'studies.account_id', 'studies.patientid'])
      .where('groups.name', '=', 'Emergency')
      .executeTakeFirstOrThrow();
    intakeStudy = await db
      .selectFrom('studies')
      .innerJoin('groups', 'groups.namespace_id', 'studies.namespace_id')
      .select(['studies.uuid', 'studies.study_uid'])
      .where('groups.name', '=', 'PACS Intake')
      .executeTakeFirstOrThrow();
    partnerAccount = await accountIdOf(server.ctx.db, 'Partner Clinic');
  });
  afterAll(() => server?.stop());

  it('gets a visible study and audits the view', async () => {
    const { body } = await server.api.get('study/get', { sid: clinician, uuid: emergencyStudy.uuid });
    expect(body).toMatchObject({ status: 'OK', uuid: emergencyStudy.uuid, phi_namespace_name: 'Emergency' });
    const views = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'STUDY_VIEW')
      .where('object_id', '=', emergencyStudy.uuid)
      .execute();
    expect(views.length).toBeGreaterThan(0);
  });

  it("answers the same NOT_FOUND for another group's study and a made-up uuid", async () => {
    const foreign = await server.api.get('study/get', { sid: clinician, uuid: intakeStudy.uuid });
    const madeUp = await server.api.get('study/get', {
      sid: clinician,
      uuid: '00000000-0000-0000-0000-000000000000',
    });
    expect(foreign.status).toBe(412);
    expect(foreign.body).toEqual(madeUp.body);
    expect(foreign.body.error_type).toBe('NOT_FOUND');
  });

  it('tells whether a study uid exists in an account, only to its members', async () => {
    const yes = await server.api.call(
      'study/exists',
      { studyUID: emergencyStudy.study_uid, accountUuid: emergencyStudy.account_id },
      clinician,
    );
    expect(yes.body.exists).toBe(1);
    const no = await server.api.call(
      'study/exists',
      { studyUID: '1.2.3.4.5', accountUuid: emergencyStudy.account_id },
      clinician,
    );
    expect(no.body.exists).toBe(0);
    const foreign = await server.api.call(
      'study/exists',
      { studyUID: emergencyStudy.study_uid, accountUuid: partnerAccount },
      clinician,
    );
    expect(foreign.body.error_type).toBe('NOT_FOUND');
    expect((await server.api.call('study/exists', {}, clinician)).body.error_type).toBe('MISSING_FIELDS');
  });

  it('does not tell a member whether a study exists in a group they cannot see', async () => {
    const exists = async (sid: string, studyUID: string) =>
      (await server.api.call('study/exists', { studyUID, accountUuid: emergencyStudy.account_id }, sid)).body;
    // PACS Intake is not the clinician's: its study answers exactly as a made-up uid does.
    expect(await exists(clinician, intakeStudy.study_uid)).toEqual(await exists(clinician, '1.2.3.4.5'));
    expect((await exists(clinician, intakeStudy.study_uid)).exists).toBe(0);
    // The gatekeeper works in PACS Intake, the admin sees every group of the account.
    const gatekeeper = await server.api.login('gatekeeper@demo.local');
    const admin = await server.api.login('admin@demo.local');
    expect((await exists(gatekeeper, intakeStudy.study_uid)).exists).toBe(1);
    expect((await exists(admin, intakeStudy.study_uid)).exists).toBe(1);
    expect((await exists(gatekeeper, emergencyStudy.study_uid)).exists).toBe(0);
  });

  it('edits patient fields with study/set, keeps search keys in step and audits before/after', async () => {
    const { body } = await server.api.call(
      'study/set',
      { uuid: emergencyStudy.uuid, patientid: 'NEW-MRN-1', patient_name: 'Zeta^Quinn' },
      clinician,
    );
    expect(body.status).toBe('OK');
    const found = await server.api.call('study/list', { 'filter.patient_name.like': 'ZETA%' }, clinician);
    expect(found.body.studies.map((s: { uuid: string }) => s.uuid)).toEqual([emergencyStudy.uuid]);
    expect(found.body.studies[0].patientid).toBe('NEW-MRN-1');
    const edit = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'EDIT')
      .where('object_id', '=', emergencyStudy.uuid)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(edit.detail!)).toMatchObject({
      before: { patientid: emergencyStudy.patientid },
      after: { patientid: 'NEW-MRN-1' },
    });
  });

  it('answers the study history with audit/object, filtered by action, newest first', async () => {
    const { body } = await server.api.get('audit/object', {
      sid: clinician,
      uuid: emergencyStudy.uuid,
      reverse: 1,
      'filter.action.in': JSON.stringify(['EDIT', 'STUDY_VIEW']),
    });
    expect(body.status).toBe('OK');
    const actions = body.events.map((e: { action: string }) => e.action);
    expect(actions[0]).toBe('EDIT');
    expect(new Set(actions)).toEqual(new Set(['EDIT', 'STUDY_VIEW']));
    expect(body.events[0]).toMatchObject({ type: 'study', who: 'Claire Clinician' });
    const times = body.events.map((e: { when: string }) => e.when);
    expect(times).toEqual([...times].sort().reverse());
    const foreign = await server.api.get('audit/object', { sid: clinician, uuid: intakeStudy.uuid });
    expect(foreign.body.error_type).toBe('NOT_FOUND');
  });

  it('refuses study/set without an id, on an unknown study, without study_edit, and with bad values', async () => {
    expect((await server.api.call('study/set', { patientid: 'X' }, clinician)).body.error_type).toBe(
      'STUDY_SET_PARAMS_EMPTY',
    );
    expect(
      (await server.api.call('study/set', { uuid: intakeStudy.uuid, patientid: 'X' }, clinician)).body
        .error_type,
    ).toBe('STUDY_SET_PARAMS_UUID_NOT_FOUND');
    expect(
      (await server.api.call('study/set', { uuid: emergencyStudy.uuid, patientid: 'X' }, viewer)).body
        .error_type,
    ).toBe('NOT_PERMITTED');
    const bad = await server.api.call(
      'study/set',
      { uuid: emergencyStudy.uuid, study_date: 'tomorrow' },
      clinician,
    );
    expect(bad.body.error_type).toBe('INVALID_FIELD');
    const dates = () =>
      server.ctx.db.kysely
        .selectFrom('studies')
        .select(['patientid', 'patient_birth_date', 'study_date', 'study_description'])
        .where('uuid', '=', emergencyStudy.uuid)
        .executeTakeFirstOrThrow();
    const before = await dates();
    expect(before.patientid).toBe('NEW-MRN-1');
    // The Exchange form's date rules hold on the server too; a valid field beside is not written.
    const inTwoDays = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const cases: [Record<string, string>, string, string][] = [
      [{ study_date: inTwoDays }, 'study_date', MESSAGES.formStudyDateFuture],
      [{ patient_birth_date: inTwoDays }, 'patient_birth_date', MESSAGES.formDobFuture],
      [{ study_date: '1900-01-01' }, 'study_date', MESSAGES.formStudyBeforeBirth],
      [
        { patient_birth_date: '2099-12-31', study_date: '2000-01-01' },
        'patient_birth_date',
        MESSAGES.formDobFuture,
      ],
      [
        { patient_birth_date: '2001-02-03', study_date: '2000-01-01' },
        'study_date',
        MESSAGES.formStudyBeforeBirth,
      ],
    ];
    for (const [params, field, message] of cases) {
      const answer = await server.api.call(
        'study/set',
        { uuid: emergencyStudy.uuid, study_description: 'SHOULD NOT LAND', ...params },
        clinician,
      );
      expect(answer.body).toMatchObject({
        error_type: 'INVALID_FIELD',
        error_subtype: field,
        error_data: message,
      });
    }
    expect(await dates()).toEqual(before);
  });

  it('locks a study against edits by others until unlocked', async () => {
    const admin = await server.api.login('admin@demo.local');
    expect((await server.api.get('study/lock', { sid: admin, uuid: emergencyStudy.uuid })).body.status).toBe(
      'OK',
    );
    const studyForClinician = await server.api.get('study/get', {
      sid: clinician,
      uuid: emergencyStudy.uuid,
    });
    expect(studyForClinician.body.is_locked).toBe(1);
    expect(studyForClinician.body.permissions.study_edit).toBe(0);
    expect(
      (await server.api.call('study/set', { uuid: emergencyStudy.uuid, patientid: 'Y' }, clinician)).body
        .error_type,
    ).toBe('LOCKED');
    expect(
      (await server.api.get('study/unlock', { sid: clinician, uuid: emergencyStudy.uuid })).body.error_type,
    ).toBe('LOCKED');
    expect(
      (await server.api.get('study/unlock', { sid: admin, uuid: emergencyStudy.uuid })).body.status,
    ).toBe('OK');
    expect(
      (await server.api.call('study/set', { uuid: emergencyStudy.uuid, patientid: 'Y' }, clinician)).body
        .status,
    ).toBe('OK');
    expect(
      (await server.api.get('study/lock', { sid: viewer, uuid: emergencyStudy.uuid })).body.error_type,
    ).toBe('NOT_PERMITTED');
  });
});
