import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

describe.each(DIALECTS)('study shares within the account on %s', (dialect) => {
  let server: TestServer;
  let clinician: string;
  let viewer: string;
  let gatekeeper: string;
  let study: { uuid: string; study_uid: string; namespace_id: string };
  let groups: Record<string, { uuid: string; namespace_id: string }>;
  let users: Record<string, string>;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    clinician = await server.api.login('clinician@demo.local');
    viewer = await server.api.login('viewer@demo.local');
    gatekeeper = await server.api.login('gatekeeper@demo.local');
    const db = server.ctx.db.kysely;
    study = await db
      .selectFrom('studies')
      .innerJoin('groups', 'groups.namespace_id', 'studies.namespace_id')
      .select(['studies.uuid', 'studies.study_uid', 'studies.namespace_id'])
      .where('groups.name', '=', 'Emergency')
      .orderBy('studies.uuid')
      .executeTakeFirstOrThrow();
    groups = Object.fromEntries(
      (await db.selectFrom('groups').select(['uuid', 'namespace_id', 'name']).execute()).map((g) => [
        g.name,
        g,
      ]),
    );
    users = Object.fromEntries(
      (await db.selectFrom('users').select(['uuid', 'email']).execute()).map((u) => [u.email, u.uuid]),
    );
  });
  afterAll(() => server?.stop());

  const shareCount = async () =>
    (
      await server.ctx.db.kysely
        .selectFrom('studies')
        .select('direct_share_count')
        .where('uuid', '=', study.uuid)
        .executeTakeFirstOrThrow()
    ).direct_share_count;

  it('lists shareable groups (not its own) and users of the account only', async () => {
    const g = await server.api.get('study/share/who', { sid: clinician, uuid: study.uuid, type: 'group' });
    const names = g.body.groups.map((x: { name: string }) => x.name).sort();
    expect(names).toEqual(['Cardiology', 'PACS Archive', 'PACS Intake', 'Teaching Files']);
    const u = await server.api.get('study/share/who', { sid: clinician, uuid: study.uuid, type: 'user' });
    const emails = u.body.users.map((x: { user_email: string }) => x.user_email).sort();
    expect(emails).toEqual(['admin@demo.local', 'gatekeeper@demo.local', 'viewer@demo.local']);
    const bad = await server.api.get('study/share/who', { sid: clinician, uuid: study.uuid, type: 'team' });
    expect(bad.body.error_type).toBe('INVALID_FIELD');
    const denied = await server.api.get('study/share/who', { sid: viewer, uuid: study.uuid, type: 'group' });
    expect(denied.body.error_type).toBe('NOT_PERMITTED');
  });

  it('shares with a group as a copy reusing the same files, visible to its members', async () => {
    const intake = groups['PACS Intake']!;
    const answer = await server.api.call(
      'study/share',
      { uuid: study.uuid, group_id: intake.uuid, message: '  please review  ' },
      clinician,
    );
    expect(answer.body.status).toBe('OK');
    const db = server.ctx.db.kysely;
    const copy = await db
      .selectFrom('studies')
      .selectAll()
      .where('namespace_id', '=', intake.namespace_id)
      .where('shared_from', '=', study.uuid)
      .executeTakeFirstOrThrow();
    expect(copy).toMatchObject({
      source: 'share',
      share_message: 'please review',
      study_uid: study.study_uid,
    });
    const keys = async (uuid: string) =>
      (await db.selectFrom('instances').select('blob_key').where('study_uuid', '=', uuid).execute())
        .map((r) => r.blob_key)
        .sort();
    expect(await keys(copy.uuid)).toEqual(await keys(study.uuid));
    expect(await shareCount()).toBe(1);

    // The gatekeeper (member of PACS Intake) finds it among shared studies.
    const seen = await server.api.call('study/list', { 'filter.source.equals': 'share' }, gatekeeper);
    expect(seen.body.studies.map((s: { uuid: string }) => s.uuid)).toContain(copy.uuid);

    // Sharing again only refreshes the message.
    await server.api.call(
      'study/share',
      { uuid: study.uuid, group_id: intake.uuid, message: 'v2' },
      clinician,
    );
    expect(await shareCount()).toBe(1);

    const list = await server.api.call('study/share/list', { uuid: study.uuid }, clinician);
    expect(list.body.shares).toEqual([
      expect.objectContaining({ uuid: intake.uuid, type: 'group', name: 'PACS Intake', message: 'v2' }),
    ]);
    // The exam's own group is the fixed owner entry, never among the shares.
    expect(list.body.owner).toEqual({ namespace_id: study.namespace_id, name: 'Emergency' });
    const created = await db
      .selectFrom('audit_events')
      .select('detail')
      .where('action', '=', 'CREATE')
      .where('object_type', '=', 'share')
      .where('object_id', '=', study.uuid)
      .execute();
    expect(created).toHaveLength(2);
  });

  it('shares with a user of the account and stops both shares', async () => {
    const viewerId = users['viewer@demo.local']!;
    expect(
      (await server.api.call('study/share', { uuid: study.uuid, user_id: viewerId }, clinician)).body.status,
    ).toBe('OK');
    expect(await shareCount()).toBe(2);
    const list = await server.api.call('study/share/list', { uuid: study.uuid }, clinician);
    expect(list.body.shares.map((s: { type: string }) => s.type).sort()).toEqual(['group', 'user']);

    const intake = groups['PACS Intake']!;
    await server.api.call('study/share/stop', { uuid: study.uuid, group_id: intake.uuid }, clinician);
    await server.api.call('study/share/stop', { uuid: study.uuid, user_id: viewerId }, clinician);
    expect(await shareCount()).toBe(0);
    const db = server.ctx.db.kysely;
    expect(
      await db.selectFrom('studies').select('uuid').where('shared_from', '=', study.uuid).execute(),
    ).toHaveLength(0);
    // The original's files are untouched.
    const files = await db
      .selectFrom('instances')
      .select('blob_key')
      .where('study_uuid', '=', study.uuid)
      .execute();
    expect(files.length).toBeGreaterThan(0);
    const empty = await server.api.call('study/share/list', { uuid: study.uuid }, clinician);
    expect(empty.body.shares).toEqual([]);
    expect(empty.body.owner.name).toBe('Emergency');
    const stops = await db
      .selectFrom('audit_events')
      .select('id')
      .where('action', '=', 'DELETE')
      .where('object_type', '=', 'share')
      .execute();
    expect(stops).toHaveLength(2);
  });

  it('delivers a user share into the recipient personal group only, with what the recipient may do', async () => {
    const viewerId = users['viewer@demo.local']!;
    const admin = await server.api.login('admin@demo.local');
    const shared = await server.api.call(
      'study/share',
      { uuid: study.uuid, user_id: viewerId, message: 'for you' },
      clinician,
    );
    expect(shared.body.status).toBe('OK');

    const personal = (await server.api.groups(viewer)).find((g) => g.name === 'Shared with me');
    expect(personal).toMatchObject({ type: 'CLOUD' });
    const found = await server.api.call(
      'study/list',
      { 'filter.phi_namespace.equals': personal!.namespace_id, 'filter.source.equals': 'share' },
      viewer,
    );
    expect(found.body.studies).toHaveLength(1);
    const copy = found.body.studies[0];
    expect(copy).toMatchObject({ study_uid: study.study_uid, share_message: 'for you', source: 'share' });
    expect(copy.uuid).not.toBe(study.uuid);
    const got = await server.api.get('study/get', { sid: viewer, uuid: copy.uuid });
    expect(got.body.permissions).toMatchObject({
      study_view: 1,
      study_download: 1,
      study_edit: 0,
      study_share: 0,
      study_upload: 0,
    });
    const edit = await server.api.call('study/set', { uuid: copy.uuid, patientid: 'X1' }, viewer);
    expect(edit.body.error_type).toBe('NOT_PERMITTED');

    // Nobody else sees the personal group or the copy, not even the account admin.
    expect((await server.api.groups(admin)).map((g) => g.name)).not.toContain('Shared with me');
    for (const sid of [admin, clinician, gatekeeper]) {
      expect((await server.api.get('study/get', { sid, uuid: copy.uuid })).body.error_type).toBe('NOT_FOUND');
    }

    // Stopping the share takes it away from the recipient at once.
    await server.api.call('study/share/stop', { uuid: study.uuid, user_id: viewerId }, clinician);
    expect((await server.api.get('study/get', { sid: viewer, uuid: copy.uuid })).body.error_type).toBe(
      'NOT_FOUND',
    );
    const after = await server.api.call(
      'study/list',
      { 'filter.phi_namespace.equals': personal!.namespace_id },
      viewer,
    );
    expect(after.body.studies).toEqual([]);
    const audit = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['action', 'detail'])
      .where('object_type', '=', 'share')
      .where('object_id', '=', study.uuid)
      .where('detail', 'like', `%${viewerId}%`)
      .orderBy('id')
      .execute();
    expect(audit.slice(-2).map((a) => a.action)).toEqual(['CREATE', 'DELETE']);
  });

  it('refuses outside recipients, empty recipients and missing permissions, changing nothing', async () => {
    const partnerUser = users['partner@demo.local']!;
    const partnerGroup = groups['Referrals']!;
    const cases: [Record<string, string>, string, string][] = [
      [{ uuid: study.uuid, user_id: partnerUser }, clinician, 'NOT_FOUND'],
      [{ uuid: study.uuid, user_id: users['clinician@demo.local']! }, clinician, 'INVALID_FIELD'],
      [{ uuid: study.uuid, group_id: partnerGroup.uuid }, clinician, 'NOT_FOUND'],
      [{ uuid: study.uuid }, clinician, 'MISSING_FIELDS'],
      [{ uuid: study.uuid, user_id: ' ' }, clinician, 'MISSING_FIELDS'],
      [{ uuid: study.uuid, group_id: groups['Emergency']!.uuid }, clinician, 'INVALID_FIELD'],
      [
        { uuid: study.uuid, group_id: groups['Cardiology']!.uuid, message: 'x'.repeat(1025) },
        clinician,
        'INVALID_FIELD',
      ],
      [{ uuid: study.uuid, group_id: groups['Cardiology']!.uuid }, viewer, 'NOT_PERMITTED'],
      [{ uuid: study.uuid, group_id: groups['Cardiology']!.uuid }, gatekeeper, 'NOT_FOUND'],
    ];
    for (const [params, sid, errorType] of cases) {
      const { body } = await server.api.call('study/share', params, sid);
      expect({ params, type: body.error_type }).toEqual({ params, type: errorType });
    }
    const stop = await server.api.call(
      'study/share/stop',
      { uuid: study.uuid, group_id: groups['Cardiology']!.uuid },
      clinician,
    );
    expect(stop.body.error_type).toBe('NOT_FOUND');
    expect(await shareCount()).toBe(0);
    const shares = await server.ctx.db.kysely.selectFrom('study_shares').select('uuid').execute();
    expect(shares).toHaveLength(0);
  });
});
