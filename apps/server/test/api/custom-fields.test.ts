import type { CustomField } from '@imaging-inbox/contract';
import { CUSTOM_FIELD_MEMO_MAX_LENGTH, CUSTOM_FIELD_TEXT_MAX_LENGTH } from '@imaging-inbox/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountIdOf } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

/** customfield/list and the custom field values of study/set (the Exchange tab). */
describe.each(DIALECTS)('custom fields on %s', (dialect) => {
  let server: TestServer;
  let clinician: string;
  let viewer: string;
  let partner: string;
  let demoAccount: string;
  let partnerField: string;
  let study: { uuid: string };
  let fields: Record<string, CustomField>;

  const param = (name: string) => `customfield-${fields[name]!.uuid}`;
  const set = (params: Record<string, string>, sid = clinician) =>
    server.api.call('study/set', { uuid: study.uuid, ...params }, sid);
  /** What an edit could have changed: the index row, the values and the number of edit events. */
  const snapshot = async () => {
    const db = server.ctx.db.kysely;
    const [row, values, edits] = await Promise.all([
      db
        .selectFrom('studies')
        .select(['study_description', 'patient_name', 'updated'])
        .where('uuid', '=', study.uuid)
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('study_customfields')
        .select(['name', 'value'])
        .where('study_uuid', '=', study.uuid)
        .orderBy('name')
        .execute(),
      db
        .selectFrom('audit_events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('object_id', '=', study.uuid)
        .where('action', '=', 'EDIT')
        .executeTakeFirstOrThrow(),
    ]);
    return { row: { ...row, updated: Number(row.updated) }, values, edits: Number(edits.n) };
  };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    clinician = await server.api.login('clinician@demo.local');
    viewer = await server.api.login('viewer@demo.local');
    partner = await server.api.login('partner@demo.local');
    const db = server.ctx.db.kysely;
    demoAccount = await accountIdOf(server.ctx.db, 'Demo Hospital');
    const partnerAccount = await accountIdOf(server.ctx.db, 'Partner Clinic');
    partnerField = 'partner-field-0001';
    await server.ctx.repos.customFields.insert({
      uuid: partnerField,
      account_id: partnerAccount,
      object: 'study',
      name: 'Partner note',
      type: 'text',
      required: 0,
      options: '[]',
      display_order: 1,
      created: Date.now(),
    });
    study = await db
      .selectFrom('studies')
      .innerJoin('groups', 'groups.namespace_id', 'studies.namespace_id')
      .select(['studies.uuid'])
      .where('groups.name', '=', 'Emergency')
      .orderBy('studies.uuid')
      .executeTakeFirstOrThrow();
    const { body } = await server.api.call('customfield/list', { account_id: demoAccount }, clinician);
    fields = Object.fromEntries((body.customfields as CustomField[]).map((f) => [f.name, f]));
  });
  afterAll(() => server?.stop());

  it('lists the account fields in display order with their options', async () => {
    const { status, body } = await server.api.call(
      'customfield/list',
      { account_id: demoAccount, 'filter.object.equals': 'study' },
      viewer,
    );
    expect(status).toBe(200);
    const list = body.customfields as CustomField[];
    expect(list.map((f) => [f.name, f.type, f.required])).toEqual([
      ['Clinical priority', 'radio', 1],
      ['Body part', 'select', 0],
      ['Referring ward', 'text', 0],
      ['Referral reason', 'memo', 0],
    ]);
    expect(list[0]).toMatchObject({
      account_id: demoAccount,
      object: 'study',
      display_order: 1,
      options: [
        { value: 'Routine', field_label: 'Routine' },
        { value: 'Urgent', field_label: 'Urgent' },
        { value: 'Stat', field_label: 'Stat' },
      ],
    });
    expect(list[2]!.options).toEqual([]);

    const some = await server.api.get('customfield/list', {
      sid: clinician,
      account_id: demoAccount,
      'filter.uuid.in': JSON.stringify([fields['Body part']!.uuid, partnerField]),
    });
    expect((some.body.customfields as CustomField[]).map((f) => f.name)).toEqual(['Body part']);
  });

  it('answers NOT_FOUND for another account, and refuses unknown filters and objects', async () => {
    const foreign = await server.api.call('customfield/list', { account_id: demoAccount }, partner);
    expect(foreign.body.error_type).toBe('NOT_FOUND');
    const made_up = await server.api.call('customfield/list', { account_id: 'no-such-account' }, clinician);
    expect(made_up.body.error_type).toBe('NOT_FOUND');
    const missing = await server.api.call('customfield/list', {}, clinician);
    expect(missing.body.error_type).toBe('MISSING_FIELDS');
    const unknownFilter = await server.api.call(
      'customfield/list',
      { account_id: demoAccount, 'filter.colour.like': 'Body' },
      clinician,
    );
    expect(unknownFilter.body).toMatchObject({
      error_type: 'INVALID_FIELD',
      error_subtype: 'filter.colour.like',
    });
    // A field of its rows is Ambra's filter convention, as on every list.
    const byName = await server.api.call(
      'customfield/list',
      { account_id: demoAccount, 'filter.name.like': 'clinical%' },
      clinician,
    );
    expect(byName.body.customfields.map((f: { name: string }) => f.name)).toEqual(['Clinical priority']);
    const badObject = await server.api.call(
      'customfield/list',
      { account_id: demoAccount, 'filter.object.equals': 'patient' },
      clinician,
    );
    expect(badObject.body.error_type).toBe('INVALID_FIELD');
    const unauthenticated = await server.api.call('customfield/list', { account_id: demoAccount });
    expect(unauthenticated.status).toBe(401);
  });

  it('sets custom field values with exam fields, answers them in study/get and audits the edit', async () => {
    const answer = await set({
      study_description: 'CT HEAD EXCHANGE',
      [param('Clinical priority')]: 'Urgent',
      [param('Referral reason')]: '  Fall at home, headache since.  ',
      [param('Body part')]: 'Head',
    });
    expect(answer.body.status).toBe('OK');
    const { body } = await server.api.get('study/get', { sid: clinician, uuid: study.uuid });
    expect(body.study_description).toBe('CT HEAD EXCHANGE');
    const values = (body.customfields as { uuid?: string; name: string; value: string }[]).filter(
      (f) => f.uuid,
    );
    expect(values).toEqual(
      expect.arrayContaining([
        { uuid: fields['Clinical priority']!.uuid, name: 'Clinical priority', value: 'Urgent' },
        {
          uuid: fields['Referral reason']!.uuid,
          name: 'Referral reason',
          value: 'Fall at home, headache since.',
        },
        { uuid: fields['Body part']!.uuid, name: 'Body part', value: 'Head' },
      ]),
    );
    expect(values).toHaveLength(3);

    const history = await server.api.get('audit/object', {
      sid: clinician,
      uuid: study.uuid,
      'filter.action.in': 'EDIT',
      reverse: 1,
    });
    const edit = history.body.events[0];
    expect(edit.who).toBe('Claire Clinician');
    expect(edit.detail.after).toMatchObject({
      study_description: 'CT HEAD EXCHANGE',
      'customfield-Clinical priority': 'Urgent',
      'customfield-Body part': 'Head',
    });
    expect(edit.detail.before).toMatchObject({ 'customfield-Clinical priority': null });
    expect(edit.detail.customfields).toHaveLength(3);
  });

  it('finds and sorts studies by an account field, named by its uuid', async () => {
    const found = await server.api.call(
      'study/list',
      {
        [`filter.${param('Clinical priority')}.equals`]: 'Urgent',
        sort_by: `${param('Clinical priority')}-desc,created-desc`,
      },
      clinician,
    );
    expect(found.status).toBe(200);
    expect(found.body.studies.map((s: { uuid: string }) => s.uuid)).toEqual([study.uuid]);
  });

  it('clears an optional field with a blank value and writes nothing when nothing changes', async () => {
    expect((await set({ [param('Body part')]: '' })).body.status).toBe('OK');
    const cleared = await snapshot();
    expect(cleared.values.find((v) => v.name === fields['Body part']!.uuid)?.value).toBeNull();
    expect((await set({ [param('Clinical priority')]: 'Urgent' })).body.status).toBe('OK');
    expect(await snapshot()).toEqual(cleared);
  });

  it('refuses bad values, naming the parameter, and changes nothing', async () => {
    const before = await snapshot();
    const cases: [Record<string, string>, string][] = [
      [{ [param('Clinical priority')]: 'Critical' }, param('Clinical priority')],
      [{ [param('Body part')]: 'Tail' }, param('Body part')],
      [{ [param('Clinical priority')]: '   ' }, param('Clinical priority')],
      [{ [param('Referring ward')]: 'W'.repeat(CUSTOM_FIELD_TEXT_MAX_LENGTH + 1) }, param('Referring ward')],
      [
        { [param('Referral reason')]: 'R'.repeat(CUSTOM_FIELD_MEMO_MAX_LENGTH + 1) },
        param('Referral reason'),
      ],
      [{ 'customfield-no-such-field': 'x' }, 'customfield-no-such-field'],
      // A field of another account is unknown here.
      [{ [`customfield-${partnerField}`]: 'x' }, `customfield-${partnerField}`],
      // The workflow fields are not editable through study/set.
      [{ 'customfield-priority': 'Routine' }, 'customfield-priority'],
    ];
    for (const [params, subtype] of cases) {
      // A valid exam field beside the bad value is not written either.
      const answer = await set({ study_description: 'SHOULD NOT LAND', ...params });
      expect(answer.status).toBe(412);
      expect(answer.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: subtype });
    }
    expect(await snapshot()).toEqual(before);
    // The longest memo is accepted.
    const longest = 'R'.repeat(CUSTOM_FIELD_MEMO_MAX_LENGTH);
    expect((await set({ [param('Referral reason')]: longest })).body.status).toBe('OK');
  });

  it('needs study_edit, hides other groups and accounts, and refuses a study locked by someone else', async () => {
    const before = await snapshot();
    const edit = { study_description: 'NOT ALLOWED', [param('Clinical priority')]: 'Stat' };
    expect((await set(edit, viewer)).body.error_type).toBe('NOT_PERMITTED');
    const gatekeeper = await server.api.login('gatekeeper@demo.local');
    expect((await set(edit, gatekeeper)).body.error_type).toBe('STUDY_SET_PARAMS_UUID_NOT_FOUND');
    expect((await set(edit, partner)).body.error_type).toBe('STUDY_SET_PARAMS_UUID_NOT_FOUND');

    const admin = await server.api.login('admin@demo.local');
    expect((await server.api.call('study/lock', { uuid: study.uuid }, admin)).body.status).toBe('OK');
    expect((await set(edit)).body.error_type).toBe('LOCKED');
    const afterLockAttempt = await snapshot();
    expect({ ...afterLockAttempt, row: { ...afterLockAttempt.row, updated: 0 } }).toEqual({
      ...before,
      row: { ...before.row, updated: 0 },
    });
    // The lock holder may edit; then the study is free again.
    expect((await set(edit, admin)).body.status).toBe('OK');
    expect((await server.api.call('study/unlock', { uuid: study.uuid }, admin)).body.status).toBe('OK');
    const { body } = await server.api.get('study/get', { sid: clinician, uuid: study.uuid });
    expect(body.customfields.find((f: { name: string }) => f.name === 'Clinical priority').value).toBe(
      'Stat',
    );
  });
});
