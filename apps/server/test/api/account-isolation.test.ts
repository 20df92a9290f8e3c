import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '@imaging-inbox/contract';
import { firstAccountOf, userIdsByName } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

/**
 * One account never changes what another sees of a person (decision 0052): Partner Clinic's admin
 * inviting Demo Hospital's people learns nothing about them, and can neither rename, disable nor
 * re-enable them; a delegated admin (role_edit and user invite, not an admin) never grants more
 * than they hold.
 */
describe.each(DIALECTS)('accounts apart: people and roles (decision 0052) on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let partner: string;
  let demo: string;
  let partnerAccount: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.api.login('admin@demo.local');
    partner = await server.api.login('partner@demo.local');
    demo = await firstAccountOf(server.api, admin);
    partnerAccount = await firstAccountOf(server.api, partner);
    Object.assign(ids, await userIdsByName(server.ctx.db));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const db = () => server.ctx.db.kysely;
  const call = (path: string, params: Record<string, string>, sid: string) =>
    server.api.call(path, params, sid);
  const person = (uuid: string) =>
    db()
      .selectFrom('users')
      .select(['name', 'first_name', 'last_name', 'status'])
      .where('uuid', '=', uuid)
      .executeTakeFirstOrThrow();
  /** Demo Hospital's view of a member (their last sign-in moves as the test signs them in). */
  const demoView = async (userId: string) => {
    const { last_login: _lastLogin, ...view } = (
      await call('account/user/get', { uuid: demo, user_id: userId }, admin)
    ).body;
    return view;
  };
  /** Does the session reach Partner Clinic? */
  const inPartner = async (sid: string) =>
    (await call('account/get', { uuid: partnerAccount }, sid)).body.status === 'OK';
  const sessionsOf = async (userId: string) =>
    (await db().selectFrom('sessions').select('sid_hash').where('user_id', '=', userId).execute()).length;
  const demoLog = () =>
    db()
      .selectFrom('audit_events')
      .select(['action', 'user_id', 'object_id'])
      .where('account_id', '=', demo)
      .execute();
  const lastMail = (to: string) =>
    db()
      .selectFrom('outbox')
      .selectAll()
      .where('to_address', '=', to)
      .orderBy('id', 'desc')
      .executeTakeFirst();
  /** The fields an invitation answers, apart from the uuid and the address. */
  const shape = (body: Record<string, unknown>) => {
    const { uuid: _uuid, email: _email, ...rest } = body;
    return rest;
  };

  it("answers an invitation of Demo Hospital's clinician exactly as one of a new address, and tells nothing about her", async () => {
    const before = await demoView(ids.clinician!);
    const known = await call(
      'account/user/add',
      { uuid: partnerAccount, email: 'clinician@demo.local', name: 'Invited Person' },
      partner,
    );
    const fresh = await call(
      'account/user/add',
      { uuid: partnerAccount, email: 'fresh.person@partner.example', name: 'Invited Person' },
      partner,
    );
    expect(known.body.status).toBe('OK');
    expect(shape(known.body)).toEqual(shape(fresh.body));
    expect(known.body).toMatchObject({ name: 'Invited Person', last_login: null, invited: 1, enabled: 1 });
    const clinician = await person(ids.clinician!);
    expect(JSON.stringify(known.body)).not.toContain(clinician.first_name);

    // Her name is not found by searching the list, which shows what the inviter typed.
    const listed = await call(
      'account/user/list',
      { uuid: partnerAccount, filter: clinician.first_name },
      partner,
    );
    expect(listed.body.users).toEqual([]);
    const got = await call('account/user/get', { uuid: partnerAccount, user_id: ids.clinician! }, partner);
    expect(got.body).toMatchObject({ name: 'Invited Person', last_login: null, invited: 1 });
    // The inviter's log does not say whether the address was known either.
    const invites = await db()
      .selectFrom('audit_events')
      .select('detail')
      .where('account_id', '=', partnerAccount)
      .where('action', '=', 'INVITE')
      .execute();
    expect(invites.map((e) => String(e.detail)).join()).not.toContain('new_user');
    // Until she accepts, the pending membership grants nothing.
    const sid = await server.api.login('clinician@demo.local');
    expect(await inPartner(sid)).toBe(false);
    expect(await demoView(ids.clinician!)).toEqual(before);
  });

  it('cannot rename or disable her: a rename while pending stays the inviter’s note, a disable suspends only Partner’s membership', async () => {
    const before = await demoView(ids.clinician!);
    const identity = await person(ids.clinician!);
    const sid = await server.api.login('clinician@demo.local');
    const renamed = await call(
      'account/user/set',
      { uuid: partnerAccount, user_id: ids.clinician!, name: 'Mallory Renamed' },
      partner,
    );
    expect(renamed.body).toMatchObject({ status: 'OK', name: 'Mallory Renamed' });
    expect(await person(ids.clinician!)).toEqual(identity);

    const disabled = await call('user/enable', { uuid: ids.clinician!, disable: '1' }, partner);
    expect(disabled.body.status).toBe('OK');
    expect(await person(ids.clinician!)).toEqual(identity);
    // Her Demo Hospital session keeps working, and Demo Hospital sees her as before.
    expect((await call('group/list', {}, sid)).body.groups.length).toBeGreaterThan(0);
    expect(await demoView(ids.clinician!)).toEqual(before);
    expect((await demoLog()).filter((e) => e.user_id === ids.partner)).toEqual([]);
    await call('user/enable', { uuid: ids.clinician! }, partner);
  });

  it('after she accepts, Partner sees her name but cannot rename or disable her; its suspension ends only its own access', async () => {
    const sid = await server.api.login('clinician@demo.local');
    const pending = await call('account/invitation/list', {}, sid);
    expect(pending.body.invitations).toEqual([{ account_id: partnerAccount, name: 'Partner Clinic' }]);
    expect((await call('account/invitation/accept', { uuid: partnerAccount }, sid)).body.status).toBe('OK');
    expect((await call('account/invitation/accept', { uuid: partnerAccount }, sid)).body).toMatchObject({
      error_type: 'NOT_FOUND',
    });
    expect(await inPartner(sid)).toBe(true);
    const identity = await person(ids.clinician!);
    const seen = await call('account/user/get', { uuid: partnerAccount, user_id: ids.clinician! }, partner);
    expect(seen.body).toMatchObject({ name: identity.name, invited: 0, renamable: 0 });

    const before = await demoView(ids.clinician!);
    const renamed = await call(
      'account/user/set',
      { uuid: partnerAccount, user_id: ids.clinician!, name: 'Mallory Renamed' },
      partner,
    );
    expect(renamed.body).toMatchObject({
      status: 'ERROR',
      error_type: 'NOT_PERMITTED',
      error_subtype: 'home_account',
    });
    expect(await person(ids.clinician!)).toEqual(identity);

    const suspended = await call('user/enable', { uuid: ids.clinician!, disable: '1' }, partner);
    expect(suspended.body.status).toBe('OK');
    expect(await person(ids.clinician!)).toMatchObject({ status: 'ACTIVE' });
    expect(await sessionsOf(ids.clinician!)).toBeGreaterThan(0);
    expect(await inPartner(sid)).toBe(false);
    expect((await call('group/list', {}, sid)).body.groups.length).toBeGreaterThan(0);
    expect(
      (await call('account/user/get', { uuid: partnerAccount, user_id: ids.clinician! }, partner)).body,
    ).toMatchObject({ enabled: 0, suspended: 1 });
    expect(await demoView(ids.clinician!)).toEqual(before);
    expect((await demoLog()).filter((e) => e.user_id === ids.partner)).toEqual([]);
    const partnerLog = await db()
      .selectFrom('audit_events')
      .select('action')
      .where('account_id', '=', partnerAccount)
      .where('object_id', '=', ids.clinician!)
      .execute();
    expect(partnerLog.map((e) => e.action)).toEqual(expect.arrayContaining(['INVITE', 'ACCEPT', 'SUSPEND']));
  });

  it('a disable by her home account reaches every account she joined, and each one’s log says so', async () => {
    await call('user/enable', { uuid: ids.clinician! }, partner);
    expect((await call('user/enable', { uuid: ids.clinician!, disable: '1' }, admin)).body.status).toBe('OK');
    expect(await person(ids.clinician!)).toMatchObject({ status: 'DISABLED' });
    const logged = await db()
      .selectFrom('audit_events')
      .select('account_id')
      .where('action', '=', 'DISABLE')
      .where('object_id', '=', ids.clinician!)
      .execute();
    expect(logged.map((e) => e.account_id).sort()).toEqual([demo, partnerAccount].sort());
    // Partner Clinic's entry names her home account, not which of its admins did it.
    const inPartnerLog = await db()
      .selectFrom('audit_events')
      .select(['user_id', 'detail'])
      .where('account_id', '=', partnerAccount)
      .where('action', '=', 'DISABLE')
      .executeTakeFirstOrThrow();
    expect(inPartnerLog.user_id).toBeNull();
    expect(JSON.parse(inPartnerLog.detail!)).toEqual({ by: 'home_account' });
    expect((await call('user/enable', { uuid: ids.clinician! }, admin)).body.status).toBe('OK');
  });

  it('cannot re-enable a viewer Demo Hospital disabled', async () => {
    expect((await call('user/enable', { uuid: ids.viewer!, disable: '1' }, admin)).body.status).toBe('OK');
    const before = await demoView(ids.viewer!);
    expect(before).toMatchObject({ enabled: 0 });
    const invited = await call(
      'account/user/add',
      { uuid: partnerAccount, email: 'viewer@demo.local' },
      partner,
    );
    expect(invited.body).toMatchObject({ status: 'OK', enabled: 1, invited: 1 });
    expect((await call('user/enable', { uuid: ids.viewer! }, partner)).body.status).toBe('OK');
    expect(await person(ids.viewer!)).toMatchObject({ status: 'DISABLED' });
    const login = await server.api.call('session/login', {
      login: 'viewer@demo.local',
      password: 'Demo-pass-2024',
    });
    expect(login.body.status).toBe('ERROR');
    expect(await demoView(ids.viewer!)).toEqual(before);
    expect((await demoLog()).filter((e) => e.user_id === ids.partner)).toEqual([]);
    await call('user/enable', { uuid: ids.viewer! }, admin);
  });

  it('lets a person decline an invitation: the pending membership goes', async () => {
    await call('account/user/add', { uuid: partnerAccount, email: 'gatekeeper@demo.local' }, partner);
    const sid = await server.api.login('gatekeeper@demo.local');
    expect((await call('account/invitation/decline', { uuid: partnerAccount }, sid)).body.status).toBe('OK');
    expect(
      (await call('account/user/get', { uuid: partnerAccount, user_id: ids.gatekeeper! }, partner)).body,
    ).toMatchObject({ error_type: 'NOT_FOUND' });
    expect((await call('account/invitation/list', {}, sid)).body.invitations).toEqual([]);
    // Partner Clinic's log says it was declined, without whose name.
    const declined = await db()
      .selectFrom('audit_events')
      .select('user_id')
      .where('account_id', '=', partnerAccount)
      .where('action', '=', 'DECLINE')
      .execute();
    expect(declined).toEqual([{ user_id: null }]);
  });

  describe('a delegated admin (role_edit, users and groups, not an admin)', () => {
    let delegate: string;
    let radiologist: string;
    const DELEGATED = [
      'role_view',
      'role_edit',
      'account_user_view',
      'account_user_edit',
      'account_user_invite',
      'group_view',
      'group_edit',
    ];

    beforeAll(async () => {
      const role = await call(
        'role/add',
        { account_id: demo, name: 'User manager', permissions: DELEGATED.join(',') },
        admin,
      );
      expect(role.body.status).toBe('OK');
      await call(
        'account/user/add',
        { uuid: demo, email: 'delegate@hospital.example', name: 'Dee Legate', role_id: role.body.uuid },
        admin,
      );
      const mail = await lastMail('delegate@hospital.example');
      const token = decodeURIComponent(/reset-password\?token=([A-Za-z0-9_%-]+)/.exec(mail!.body)![1]!);
      await server.api.call('user/password/reset', { token, password: 'Delegate-pass-2024' });
      delegate = await server.api.login('delegate@hospital.example', 'Delegate-pass-2024');
      const roles = (await call('role/list', { account_id: demo }, admin)).body.roles as {
        uuid: string;
        name: string;
      }[];
      radiologist = roles.find((r) => r.name === 'Radiologist')!.uuid;
    });

    const roleCount = async () =>
      (await db().selectFrom('roles').select('uuid').where('account_id', '=', demo).execute()).length;

    it('cannot make a role carrying a permission they do not hold, nor raise one above theirs', async () => {
      const count = await roleCount();
      const all = await call(
        'role/add',
        { account_id: demo, name: 'Everything', permissions: ALL_PERMISSIONS.join(',') },
        delegate,
      );
      expect(all.body).toMatchObject({
        error_type: 'NOT_PERMITTED',
        error_subtype: 'beyond_own_permissions',
      });
      expect(await roleCount()).toBe(count);

      const own = await call(
        'role/add',
        { account_id: demo, name: 'User viewer', permissions: 'account_user_view' },
        delegate,
      );
      expect(own.body.status).toBe('OK');
      const raised = await call(
        'role/set',
        { uuid: own.body.uuid, permissions: 'account_user_view,study_delete' },
        delegate,
      );
      expect(raised.body).toMatchObject({
        error_type: 'NOT_PERMITTED',
        error_subtype: 'beyond_own_permissions',
      });
      const above = await call('role/set', { uuid: radiologist, name: 'Junior radiologist' }, delegate);
      expect(above.body).toMatchObject({
        error_type: 'NOT_PERMITTED',
        error_subtype: 'beyond_own_permissions',
      });
      const kept = await call('role/get', { uuid: radiologist }, admin);
      expect(kept.body.name).toBe('Radiologist');
      expect((await call('role/get', { uuid: own.body.uuid }, admin)).body.permissions).toEqual([
        'account_user_view',
      ]);
    });

    it('cannot give a role above theirs: not by invitation, on the account, nor in a group', async () => {
      const invite = await call(
        'account/user/add',
        { uuid: demo, email: 'second.identity@hospital.example', role_id: radiologist },
        delegate,
      );
      expect(invite.body).toMatchObject({
        error_type: 'NOT_PERMITTED',
        error_subtype: 'beyond_own_permissions',
      });
      expect(
        await db()
          .selectFrom('users')
          .select('uuid')
          .where('email', '=', 'second.identity@hospital.example')
          .execute(),
      ).toEqual([]);
      expect(await lastMail('second.identity@hospital.example')).toBeUndefined();

      const viewerBefore = await demoView(ids.viewer!);
      const set = await call(
        'account/user/set',
        { uuid: demo, user_id: ids.viewer!, role_id: radiologist },
        delegate,
      );
      expect(set.body).toMatchObject({
        error_type: 'NOT_PERMITTED',
        error_subtype: 'beyond_own_permissions',
      });
      expect(await demoView(ids.viewer!)).toEqual(viewerBefore);

      const groups = (await call('account/group/list', { uuid: demo }, admin)).body.groups as {
        uuid: string;
        name: string;
      }[];
      const emergency = groups.find((g) => g.name === 'Emergency')!.uuid;
      const membersBefore = (await call('group/user/list', { uuid: emergency }, admin)).body;
      const member = await call(
        'group/user/add',
        { uuid: emergency, user_id: ids.viewer!, role_id: radiologist },
        delegate,
      );
      expect(member.body).toMatchObject({
        error_type: 'NOT_PERMITTED',
        error_subtype: 'beyond_own_permissions',
      });
      expect((await call('group/user/list', { uuid: emergency }, admin)).body).toEqual(membersBefore);
    });

    it('still gives what they hold, and an admin gives anything', async () => {
      const own = await call(
        'role/add',
        { account_id: demo, name: 'Inviter', permissions: 'account_user_invite' },
        delegate,
      );
      expect(own.body.status).toBe('OK');
      const invite = await call(
        'account/user/add',
        { uuid: demo, email: 'helper@hospital.example', role_id: own.body.uuid },
        delegate,
      );
      expect(invite.body).toMatchObject({ status: 'OK', account_role: { uuid: own.body.uuid } });
      const everything = await call(
        'role/add',
        { account_id: demo, name: 'Everything', permissions: ALL_PERMISSIONS.join(',') },
        admin,
      );
      expect(everything.body.status).toBe('OK');
    });
  });
});
