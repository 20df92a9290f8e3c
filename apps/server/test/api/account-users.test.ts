import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstAccountOf, userIdsByName } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

describe.each(DIALECTS)('user administration (account/user/*, user/enable) on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let account: string;
  let partnerAccount: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.api.login('admin@demo.local');
    account = await firstAccountOf(server.api, admin);
    const partner = await server.api.login('partner@demo.local');
    partnerAccount = await firstAccountOf(server.api, partner);
    Object.assign(ids, await userIdsByName(server.ctx.db));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const call = (path: string, params: Record<string, string>, sid = admin) =>
    server.api.call(path, params, sid);
  const list = (params: Record<string, string> = {}, sid = admin) =>
    call('account/user/list', { uuid: account, ...params }, sid);
  const snapshot = async () => {
    const db = server.ctx.db.kysely;
    return {
      users: await db.selectFrom('users').select(['uuid', 'name', 'status']).orderBy('uuid').execute(),
      members: await db.selectFrom('account_members').selectAll().orderBy('user_id').execute(),
      groups: await db.selectFrom('group_members').selectAll().orderBy('user_id').execute(),
    };
  };

  it('lists the account users with name, email, last login, role and enabled, searched, sorted and paged', async () => {
    const all = await list();
    expect(all.body.status).toBe('OK');
    expect(all.body.page).toEqual({ number: 1, rows: 10, total: 4, more: 0 });
    // By name, A to Z, unless asked otherwise.
    const names = all.body.users.map((u: { name: string }) => u.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    const me = all.body.users.find((u: { email: string }) => u.email === 'admin@demo.local');
    expect(me).toMatchObject({ uuid: ids.admin, role: 'admin', enabled: 1 });
    expect(typeof me.last_login).toBe('number');
    expect(all.body.users.find((u: { email: string }) => u.email === 'viewer@demo.local')).toMatchObject({
      role: 'user',
      last_login: null,
    });

    const byEmail = await list({ sort_by: 'email-desc' });
    expect(byEmail.body.users.map((u: { email: string }) => u.email)).toEqual([
      'viewer@demo.local',
      'gatekeeper@demo.local',
      'clinician@demo.local',
      'admin@demo.local',
    ]);
    const found = await list({ filter: 'CLINI' });
    expect(found.body.users.map((u: { email: string }) => u.email)).toEqual(['clinician@demo.local']);
    expect(found.body.page.total).toBe(1);
    // `_` is a character, not a wildcard.
    expect((await list({ filter: 'c_inician' })).body.users).toEqual([]);

    const wide = await list({ 'page.rows': '25', 'page.number': '1' });
    expect(wide.body.page).toMatchObject({ rows: 25, number: 1 });
    const beyond = await list({ 'page.rows': '10', 'page.number': '2' });
    expect(beyond.body.users).toEqual([]);
    expect(beyond.body.page).toMatchObject({ number: 2, total: 4, more: 0 });
  });

  it('refuses a bad page size, sort or page number with a clear error', async () => {
    for (const [params, field] of [
      // Any size from 1 is taken (test/api/list-paging.test.ts): 0 and words are not.
      [{ 'page.rows': '0' }, 'page.rows'],
      [{ 'page.rows': 'ten' }, 'page.rows'],
      [{ sort_by: 'password-asc' }, 'sort_by'],
      [{ sort_by: 'name' }, 'sort_by'],
      [{ 'page.number': '0' }, 'page.number'],
    ] as const) {
      const answer = await list(params);
      expect(answer.status, JSON.stringify(params)).toBe(412);
      expect(answer.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: field });
    }
    expect((await call('account/user/list', {})).body).toMatchObject({ error_type: 'MISSING_FIELDS' });
  });

  it('lets only holders of account_user_view or account_user_edit see the users; outsiders find no account', async () => {
    const clinician = await server.api.login('clinician@demo.local');
    expect((await list({}, clinician)).body.error_type).toBe('NOT_PERMITTED');
    expect(
      (await call('account/user/get', { uuid: account, user_id: ids.viewer! }, clinician)).body.error_type,
    ).toBe('NOT_PERMITTED');
    const partner = await server.api.login('partner@demo.local');
    expect((await list({}, partner)).body.error_type).toBe('NOT_FOUND');
    // A user of another account is not found in this one.
    expect((await call('account/user/get', { uuid: account, user_id: ids.partner! })).body.error_type).toBe(
      'NOT_FOUND',
    );
    expect((await call('account/user/get', { uuid: account, user_id: ids.viewer! })).body).toMatchObject({
      status: 'OK',
      email: 'viewer@demo.local',
      role: 'user',
      enabled: 1,
    });
  });

  it('renames a user and changes their role, which takes effect at their next call; bad input changes nothing', async () => {
    const before = await snapshot();
    for (const [params, type] of [
      [{ name: '   ' }, 'INVALID_FIELD'],
      [{ name: 'x'.repeat(201) }, 'INVALID_FIELD'],
      [{ role: 'owner' }, 'INVALID_FIELD'],
      [{}, 'MISSING_FIELDS'],
    ] as const) {
      const answer = await call('account/user/set', { uuid: account, user_id: ids.gatekeeper!, ...params });
      expect(answer.body.error_type, JSON.stringify(params)).toBe(type);
    }
    // The only admin cannot make themselves a user.
    const demote = await call('account/user/set', { uuid: account, user_id: ids.admin!, role: 'user' });
    expect(demote.body).toMatchObject({ error_type: 'LAST_ADMIN' });
    expect(await snapshot()).toEqual(before);

    const gatekeeper = await server.api.login('gatekeeper@demo.local');
    expect((await list({}, gatekeeper)).body.error_type).toBe('NOT_PERMITTED');
    const set = await call('account/user/set', {
      uuid: account,
      user_id: ids.gatekeeper!,
      name: '  Grace   Keeper ',
      role: 'admin',
    });
    expect(set.body).toMatchObject({
      status: 'OK',
      name: 'Grace Keeper',
      first_name: 'Grace',
      last_name: 'Keeper',
      role: 'admin',
    });
    // The same session now may list the users.
    expect((await list({}, gatekeeper)).body.status).toBe('OK');
    // With a second admin, the first may step down, and back.
    expect(
      (await call('account/user/set', { uuid: account, user_id: ids.admin!, role: 'user' })).body.role,
    ).toBe('user');
    expect(
      (await call('account/user/set', { uuid: account, user_id: ids.admin!, role: 'admin' }, gatekeeper)).body
        .role,
    ).toBe('admin');
    expect(
      (await call('account/user/set', { uuid: account, user_id: ids.gatekeeper!, role: 'user' })).body.role,
    ).toBe('user');
    expect((await list({}, gatekeeper)).body.error_type).toBe('NOT_PERMITTED');
  });

  it('disables a user: their sessions end and they cannot sign in until enabled again', async () => {
    const viewer = await server.api.login('viewer@demo.local');
    expect((await call('user/enable', { uuid: ids.viewer!, disable: '2' })).body).toMatchObject({
      error_type: 'INVALID_FIELD',
    });
    expect((await call('user/enable', { uuid: ids.viewer!, disable: '1' })).body.status).toBe('OK');
    expect((await call('session/user', {}, viewer)).status).toBe(401);
    const login = await server.api.call('session/login', {
      login: 'viewer@demo.local',
      password: 'Demo-pass-2024',
    });
    expect(login.body.status).toBe('ERROR');
    expect((await call('account/user/get', { uuid: account, user_id: ids.viewer! })).body.enabled).toBe(0);

    expect((await call('user/enable', { uuid: ids.viewer! })).body.status).toBe('OK');
    expect((await call('session/user', {}, await server.api.login('viewer@demo.local'))).status).toBe(200);
  });

  it('refuses to disable or remove the last admin, and a user the caller does not manage is not found', async () => {
    const before = await snapshot();
    expect((await call('user/enable', { uuid: ids.admin!, disable: '1' })).body.error_type).toBe(
      'LAST_ADMIN',
    );
    expect((await call('account/user/delete', { uuid: account, user_id: ids.admin! })).body.error_type).toBe(
      'LAST_ADMIN',
    );
    expect((await call('user/enable', { uuid: ids.partner!, disable: '1' })).body.error_type).toBe(
      'NOT_FOUND',
    );
    const clinician = await server.api.login('clinician@demo.local');
    expect((await call('user/enable', { uuid: ids.viewer!, disable: '1' }, clinician)).body.error_type).toBe(
      'NOT_FOUND',
    );
    expect(
      (await call('account/user/delete', { uuid: partnerAccount, user_id: ids.partner! })).body.error_type,
    ).toBe('NOT_FOUND');
    expect(await snapshot()).toEqual(before);
    // The admin's own session still works.
    expect((await call('session/user', {})).status).toBe(200);
  });

  it('removes a user from the account and its groups', async () => {
    const viewer = await server.api.login('viewer@demo.local');
    expect((await call('account/user/delete', { uuid: account, user_id: ids.viewer! })).body.status).toBe(
      'OK',
    );
    expect((await list()).body.users.map((u: { email: string }) => u.email)).not.toContain(
      'viewer@demo.local',
    );
    expect((await call('account/user/get', { uuid: account, user_id: ids.viewer! })).body.error_type).toBe(
      'NOT_FOUND',
    );
    expect((await call('group/list', {}, viewer)).body.groups).toEqual([]);
    const audit = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['action', 'object_id'])
      .where('object_type', '=', 'USER')
      .execute();
    expect(audit).toContainEqual({ action: 'DELETE', object_id: ids.viewer });
  });

  const lastMail = (to: string) =>
    server.ctx.db.kysely
      .selectFrom('outbox')
      .selectAll()
      .where('to_address', '=', to)
      .orderBy('id', 'desc')
      .executeTakeFirst();

  it('invites a new address: a user with no password yet and a one-time link to choose one', async () => {
    const added = await call('account/user/add', {
      uuid: account,
      email: ' New.Nurse@Hospital.example ',
      name: 'Nora Nurse',
    });
    expect(added.body).toMatchObject({
      status: 'OK',
      email: 'new.nurse@hospital.example',
      name: 'Nora Nurse',
      role: 'user',
      enabled: 1,
      last_login: null,
    });
    // No password works until they choose one.
    const early = await server.api.call('session/login', {
      login: 'new.nurse@hospital.example',
      password: '!invited',
    });
    expect(early.body.status).toBe('ERROR');
    const mail = await lastMail('new.nurse@hospital.example');
    expect(mail?.subject).toContain('Demo');
    const token = decodeURIComponent(/reset-password\?token=([A-Za-z0-9_%-]+)/.exec(mail!.body)![1]!);
    const set = await server.api.call('user/password/reset', {
      token,
      password: 'Nurse-pass-2024',
      password_confirm: 'Nurse-pass-2024',
    });
    expect(set.body.status).toBe('OK');
    // The link works once.
    const again = await server.api.call('user/password/reset', {
      token,
      password: 'Other-pass-2024',
      password_confirm: 'Other-pass-2024',
    });
    expect(again.body.status).toBe('ERROR');
    const nurse = await server.api.login('new.nurse@hospital.example', 'Nurse-pass-2024');
    expect((await call('account/list', {}, nurse)).body.accounts[0].uuid).toBe(account);
  });

  it('refuses a bad or duplicate invitation with a clear error and writes nothing', async () => {
    const before = {
      ...(await snapshot()),
      mails: (await server.ctx.db.kysely.selectFrom('outbox').select('id').execute()).length,
    };
    for (const [params, type, field] of [
      [{ email: 'not-an-address' }, 'INVALID_FIELD', 'email'],
      [{ email: `${'a'.repeat(250)}@x.example` }, 'INVALID_FIELD', 'email'],
      [{ email: 'x@hospital.example', role: 'owner' }, 'INVALID_FIELD', 'role'],
      [{ email: 'x@hospital.example', name: '  ' }, 'INVALID_FIELD', 'name'],
      [{ email: 'CLINICIAN@demo.local' }, 'INVALID_FIELD', 'email'],
      [{}, 'MISSING_FIELDS', 'email'],
    ] as const) {
      const answer = await call('account/user/add', { uuid: account, ...params });
      expect(answer.body, JSON.stringify(params)).toMatchObject({ error_type: type, error_subtype: field });
    }
    const clinician = await server.api.login('clinician@demo.local');
    expect(
      (await call('account/user/add', { uuid: account, email: 'y@hospital.example' }, clinician)).body
        .error_type,
    ).toBe('NOT_PERMITTED');
    const partner = await server.api.login('partner@demo.local');
    expect(
      (await call('account/user/add', { uuid: account, email: 'y@hospital.example' }, partner)).body
        .error_type,
    ).toBe('NOT_FOUND');
    const after = {
      ...(await snapshot()),
      mails: (await server.ctx.db.kysely.selectFrom('outbox').select('id').execute()).length,
    };
    expect(after).toEqual(before);
  });

  it('answers two invitations of one new address at once with one user and a clear refusal, never a 500', async () => {
    const email = 'twice@hospital.example';
    const answers = await Promise.all([
      call('account/user/add', { uuid: account, email }),
      call('account/user/add', { uuid: account, email }),
      call('account/user/add', { uuid: account, email }),
    ]);
    const statuses = answers.map((a) => a.status).sort();
    expect(
      statuses.every((s) => s === 200 || s === 412),
      JSON.stringify(statuses),
    ).toBe(true);
    expect(answers.filter((a) => a.body.status === 'OK')).toHaveLength(1);
    for (const refused of answers.filter((a) => a.body.status !== 'OK')) {
      expect(refused.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'email' });
    }
    const users = await server.ctx.db.kysely
      .selectFrom('users')
      .select('uuid')
      .where('email', '=', email)
      .execute();
    expect(users).toHaveLength(1);
    const mails = await server.ctx.db.kysely
      .selectFrom('outbox')
      .select('id')
      .where('to_address', '=', email)
      .execute();
    expect(mails).toHaveLength(1);
    await call('account/user/delete', { uuid: account, user_id: users[0]!.uuid });
  });

  it('invites a user of another account without a new login, and tells them by mail to accept', async () => {
    const added = await call('account/user/add', { uuid: account, email: 'partner@demo.local' });
    expect(added.body).toMatchObject({ status: 'OK', uuid: ids.partner, role: 'user', invited: 1 });
    const mail = await lastMail('partner@demo.local');
    expect(mail?.body).toContain('invited you to join');
    expect(mail?.body).toContain('accept the invitation');
    expect(mail?.body).not.toContain('token=');
    await call('account/user/delete', { uuid: account, user_id: ids.partner! });
  });

  it('keeps the admin role with the admins: a user editor can invite and edit users but not make or touch admins', async () => {
    const editor = await server.ctx.db.kysely
      .updateTable('account_members')
      // Granted on the membership itself, instead of through the demo world's Radiologist role.
      .set({ permissions: JSON.stringify(['account_user_edit']), role_id: null })
      .where('user_id', '=', ids.clinician!)
      .execute();
    expect(editor).toBeDefined();
    const clinician = await server.api.login('clinician@demo.local');
    const before = await snapshot();
    expect(
      (
        await call(
          'account/user/add',
          { uuid: account, email: 'boss@hospital.example', role: 'admin' },
          clinician,
        )
      ).body.error_type,
    ).toBe('NOT_PERMITTED');
    expect(
      (await call('account/user/set', { uuid: account, user_id: ids.clinician!, role: 'admin' }, clinician))
        .body.error_type,
    ).toBe('NOT_PERMITTED');
    expect(
      (await call('account/user/set', { uuid: account, user_id: ids.admin!, name: 'Someone' }, clinician))
        .body.error_type,
    ).toBe('NOT_PERMITTED');
    expect(
      (await call('account/user/delete', { uuid: account, user_id: ids.admin! }, clinician)).body.error_type,
    ).toBe('NOT_PERMITTED');
    expect((await call('user/enable', { uuid: ids.admin!, disable: '1' }, clinician)).body.error_type).toBe(
      'NOT_PERMITTED',
    );
    expect(await snapshot()).toEqual(before);
    expect(
      (
        await call(
          'account/user/set',
          { uuid: account, user_id: ids.gatekeeper!, name: 'Gate Keeper' },
          clinician,
        )
      ).body.status,
    ).toBe('OK');
    expect(
      (await call('account/user/add', { uuid: account, email: 'clerk@hospital.example' }, clinician)).body
        .status,
    ).toBe('OK');
    await server.ctx.db.kysely
      .updateTable('account_members')
      .set({ permissions: '["user_modify_notifications"]' })
      .where('user_id', '=', ids.clinician!)
      .execute();
  });
});
