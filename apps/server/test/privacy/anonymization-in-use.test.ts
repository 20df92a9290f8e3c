import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDestination } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

interface Use {
  type: string;
  uuid: string;
  name: string;
}

/**
 * A de-identification profile something still applies is not deleted (decision 0073): a group it
 * de-identifies into, a destination, a live request link, a routing rule's action, a push still
 * queued. anonymization/delete answers IN_USE naming each, and nothing changes (the profile, what
 * uses it, the audit log); once each use is gone, it deletes. Another account's admin finds nothing;
 * a member holding anonymization_edit alone is told the same as the account's admin.
 */
describe.each(DIALECTS)('deleting a de-identification profile in use on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let partnerAdmin: string;
  let clinician: string;
  let account: string;
  let groups: Record<string, { uuid: string; namespace_id: string }>;

  const call = (name: string, params: Record<string, string | number>, sid: string) =>
    server.api.call(name, params, sid);
  const db = () => server.ctx.db.kysely;
  const deleteEvents = async (uuid: string) =>
    (
      await db()
        .selectFrom('audit_events')
        .select('id')
        .where('object_type', '=', 'anonymization')
        .where('object_id', '=', uuid)
        .where('action', '=', 'DELETE')
        .execute()
    ).length;
  const exists = async (uuid: string) =>
    (await db().selectFrom('anonymization_profiles').select('uuid').where('uuid', '=', uuid).execute())
      .length === 1;
  /** Refused with IN_USE `anonymization`: answers the uses named. */
  const refused = async (uuid: string, sid = admin): Promise<Use[]> => {
    const answer = await call('anonymization/delete', { uuid }, sid);
    expect(answer.status, JSON.stringify(answer.body)).toBe(412);
    expect(answer.body).toMatchObject({ error_type: 'IN_USE', error_subtype: 'anonymization' });
    expect(await exists(uuid)).toBe(true);
    expect(await deleteEvents(uuid)).toBe(0);
    return answer.body.error_data.uses as Use[];
  };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.api.login('admin@demo.local');
    partnerAdmin = await server.api.login('partner@demo.local');
    clinician = await server.api.login('clinician@demo.local');
    const accounts = await db().selectFrom('accounts').select(['uuid', 'vanity']).execute();
    account = accounts.find((a) => a.vanity === 'demo')!.uuid;
    groups = Object.fromEntries((await server.api.groups(admin)).map((g) => [g.name, g]));
  });
  afterAll(() => server?.stop());

  it("refuses to delete the demo's Teaching Files profile while Teaching Files de-identifies with it", async () => {
    const teaching = (await call('anonymization/list', { account_id: account }, admin)).body.profiles.find(
      (p: { name: string }) => p.name === 'Teaching Files',
    );
    expect(await refused(teaching.uuid)).toEqual([
      { type: 'group', uuid: groups['Teaching Files']!.uuid, name: 'Teaching Files' },
    ]);
    // The group still de-identifies what is shared into it.
    expect((await call('anonymization/get', { uuid: teaching.uuid }, admin)).body.groups).toEqual([
      groups['Teaching Files']!.uuid,
    ]);
  });

  it('names every group, destination, live link, routing rule and queued push using a profile, then deletes it once none does', async () => {
    const profile = (
      await call(
        'anonymization/add',
        { account_id: account, name: 'Widely used', groups: groups['Cardiology']!.uuid },
        admin,
      )
    ).body as { uuid: string };
    const destination = await addDestination(server.api, admin, account, {
      name: 'Research archive',
      aetitle: 'RESEARCH',
      port: 11112,
      can_push: 1,
      anonymization_id: profile.uuid,
    });
    const linked = await call(
      'link/add',
      {
        namespace_id: groups['Emergency']!.namespace_id,
        action: 'STUDY_UPLOAD',
        email: `in-use-${dialect}@hospital.example`,
        max_hits: 5,
        minutes_alive: 600,
        notify: 0,
        anonymization_id: profile.uuid,
      },
      clinician,
    );
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    const link = await db()
      .selectFrom('links')
      .select('uuid')
      .where('anonymization_id', '=', profile.uuid)
      .executeTakeFirstOrThrow();
    const rule = (
      await call(
        'route/add',
        {
          account_id: account,
          name: 'Emergency to the archive, de-identified',
          for_type: 'group',
          for_id: groups['Emergency']!.uuid,
          when: 'upload',
          actions: JSON.stringify([
            { type: 'share_group', group_id: groups['PACS Archive']!.uuid, anonymization_id: profile.uuid },
          ]),
        },
        admin,
      )
    ).body.route as { uuid: string };
    // A push waiting to run (written as study/push writes one; no job is queued for it, so it stays).
    const study = await db()
      .selectFrom('studies')
      .select(['uuid', 'account_id'])
      .where('namespace_id', '=', groups['Emergency']!.namespace_id)
      .executeTakeFirstOrThrow();
    const push = `in-use-push-${dialect}`;
    const adminUser = await db()
      .selectFrom('users')
      .select('uuid')
      .where('email', '=', 'admin@demo.local')
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('study_pushes')
      .values({
        uuid: push,
        study_uuid: study.uuid,
        account_id: study.account_id,
        destination_id: destination,
        destination_name: 'Research archive',
        user_id: adminUser.uuid,
        status: 'I',
        reason: null,
        image_count: 1,
        anonymization_id: profile.uuid,
        anonymization_name: 'Widely used',
        created: Date.now(),
        updated: Date.now(),
      })
      .execute();

    const uses = await refused(profile.uuid);
    expect(uses).toEqual([
      { type: 'group', uuid: groups['Cardiology']!.uuid, name: 'Cardiology' },
      { type: 'destination', uuid: destination, name: 'Research archive' },
      { type: 'link', uuid: link.uuid, name: 'Emergency' },
      { type: 'routing_rule', uuid: rule.uuid, name: 'Emergency to the archive, de-identified' },
      { type: 'push', uuid: push, name: 'Research archive' },
    ]);
    // What uses it is unchanged.
    expect((await call('destination/get', { uuid: destination }, admin)).body.anonymization_id).toBe(
      profile.uuid,
    );
    expect((await call('route/get', { uuid: rule.uuid }, admin)).body.route.actions[0].anonymization_id).toBe(
      profile.uuid,
    );

    // Each use removed in turn: the answer names what is left, until nothing is.
    await call('anonymization/set', { uuid: profile.uuid, groups: '' }, admin);
    expect((await refused(profile.uuid)).map((u) => u.type)).toEqual([
      'destination',
      'link',
      'routing_rule',
      'push',
    ]);
    await call('destination/set', { uuid: destination, anonymization_id: '' }, admin);
    expect((await call('link/delete', { uuid: link.uuid }, clinician)).status).toBe(200);
    // A disabled rule still names it: enabled again, its action would fail.
    await call('route/set', { uuid: rule.uuid, disabled: 1 }, admin);
    expect((await refused(profile.uuid)).map((u) => u.type)).toEqual(['routing_rule', 'push']);
    expect((await call('route/delete', { uuid: rule.uuid }, admin)).status).toBe(200);
    await db().updateTable('study_pushes').set({ status: 'F' }).where('uuid', '=', push).execute();

    const deleted = await call('anonymization/delete', { uuid: profile.uuid }, admin);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(await exists(profile.uuid)).toBe(false);
    expect(await deleteEvents(profile.uuid)).toBe(1);
  });

  it("tells another account's admin nothing, and a member holding anonymization_edit alone what uses it", async () => {
    const profile = (
      await call(
        'anonymization/add',
        { account_id: account, name: 'Orthopedics share', groups: groups['Cardiology']!.uuid },
        admin,
      )
    ).body as { uuid: string };
    const foreign = await call('anonymization/delete', { uuid: profile.uuid }, partnerAdmin);
    expect(foreign.body.error_type).toBe('NOT_FOUND');
    expect(foreign.body.error_data ?? null).toBeNull();
    expect((await call('anonymization/delete', { uuid: profile.uuid }, clinician)).body.error_type).toBe(
      'NOT_PERMITTED',
    );

    const role = (
      await call(
        'role/add',
        { account_id: account, name: 'Privacy officer', permissions: 'anonymization_edit' },
        admin,
      )
    ).body;
    const email = `privacy-officer-${dialect}@demo.local`;
    expect((await call('account/user/add', { uuid: account, email, role_id: role.uuid }, admin)).status).toBe(
      200,
    );
    const mail = await db()
      .selectFrom('outbox')
      .select('body')
      .where('to_address', '=', email)
      .executeTakeFirstOrThrow();
    const token = decodeURIComponent(/reset-password\?token=([A-Za-z0-9_%-]+)/.exec(mail.body)![1]!);
    await call('user/password/reset', { token, password: 'Officer-pass-2024' }, '');
    const officer = await server.api.login(email, 'Officer-pass-2024');
    expect(await refused(profile.uuid, officer)).toEqual([
      { type: 'group', uuid: groups['Cardiology']!.uuid, name: 'Cardiology' },
    ]);
    await call('anonymization/set', { uuid: profile.uuid, groups: '' }, officer);
    expect((await call('anonymization/delete', { uuid: profile.uuid }, officer)).status).toBe(200);
    expect(await exists(profile.uuid)).toBe(false);
  });
});
