import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstAccountOf, groupIdsByName, userIdsByName } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

describe.each(DIALECTS)('roles (role/*) and the memberships that hold them on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let account: string;
  let partnerAccount: string;
  const ids: Record<string, string> = {};
  const groups: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.api.login('admin@demo.local');
    account = await firstAccountOf(server.api, admin);
    const partner = await server.api.login('partner@demo.local');
    partnerAccount = await firstAccountOf(server.api, partner);
    Object.assign(ids, await userIdsByName(server.ctx.db));
    Object.assign(groups, await groupIdsByName(server.ctx.db));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const call = (path: string, params: Record<string, string>, sid = admin) =>
    server.api.call(path, params, sid);
  const roleRows = () => server.ctx.db.kysely.selectFrom('roles').selectAll().orderBy('uuid').execute();
  const addRole = async (name: string, permissions: string) => {
    const answer = await call('role/add', { account_id: account, name, permissions });
    expect(answer.body.status, JSON.stringify(answer.body)).toBe('OK');
    return answer.body.uuid as string;
  };

  it('adds, lists, reads and renames roles of the account, their permissions in the contract order', async () => {
    const added = await call('role/add', {
      account_id: account,
      name: ' Front desk ',
      permissions: 'study_view, study_upload,study_view',
    });
    expect(added.body).toMatchObject({
      status: 'OK',
      account_id: account,
      name: 'Front desk',
      permissions: ['study_upload', 'study_view'],
      holders: 0,
    });
    const asJson = await call('role/add', {
      account_id: account,
      name: 'Auditor',
      permissions: '["audit_view"]',
    });
    expect(asJson.body.permissions).toEqual(['audit_view']);
    const list = await call('role/list', { account_id: account });
    // By name, with the demo world's roles.
    expect(list.body.roles.map((r: { name: string }) => r.name)).toEqual([
      'Archive reader',
      'Auditor',
      'Front desk',
      'PACS coordinator',
      'Radiologist',
      'Referring physician',
    ]);
    expect((await call('role/get', { uuid: added.body.uuid })).body).toMatchObject({ name: 'Front desk' });
    const renamed = await call('role/set', { uuid: added.body.uuid, name: 'Reception' });
    expect(renamed.body).toMatchObject({ name: 'Reception', permissions: ['study_upload', 'study_view'] });
    const emptied = await call('role/set', { uuid: asJson.body.uuid, permissions: '' });
    expect(emptied.body.permissions).toEqual([]);
    // Each change is in the account's audit trail.
    const audit = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['action'])
      .where('object_type', '=', 'ROLE')
      .execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['ADD', 'ADD', 'EDIT', 'EDIT']);
  });

  it('refuses an unknown permission, a taken or blank name and a bad list with a clear error, changing nothing', async () => {
    const role = await addRole('Typist', 'study_view');
    const before = await roleRows();
    for (const [path, params, type, subtype] of [
      ['role/add', { name: 'X', permissions: 'study_view,study_fly' }, 'INVALID_FIELD', 'permissions'],
      ['role/add', { name: 'X', permissions: '["study_view"' }, 'INVALID_FIELD', 'permissions'],
      ['role/add', { name: 'Typist' }, 'INVALID_FIELD', 'name'],
      ['role/add', { name: '  ' }, 'MISSING_FIELDS', 'name'],
      ['role/add', { name: 'y'.repeat(101) }, 'INVALID_FIELD', 'name'],
      ['role/set', { uuid: role, permissions: 'admin' }, 'INVALID_FIELD', 'permissions'],
      ['role/set', { uuid: role }, 'MISSING_FIELDS', 'name,permissions'],
    ] as const) {
      const answer = await call(path, { account_id: account, ...params });
      expect(answer.body, JSON.stringify(params)).toMatchObject({ error_type: type, error_subtype: subtype });
    }
    const unknown = await call('role/add', { account_id: account, name: 'X', permissions: 'study_fly,root' });
    expect(String(unknown.body.error_data)).toContain('study_fly, root');
    expect(await roleRows()).toEqual(before);
  });

  it('lets only role_view / role_edit holders see and change roles; other accounts find nothing', async () => {
    const role = await addRole('Night shift', 'study_view');
    const clinician = await server.api.login('clinician@demo.local');
    expect((await call('role/list', { account_id: account }, clinician)).body.error_type).toBe(
      'NOT_PERMITTED',
    );
    expect((await call('role/get', { uuid: role }, clinician)).body.error_type).toBe('NOT_PERMITTED');
    expect(
      (await call('role/add', { account_id: account, name: 'Z', permissions: '' }, clinician)).body
        .error_type,
    ).toBe('NOT_PERMITTED');
    const partner = await server.api.login('partner@demo.local');
    expect((await call('role/list', { account_id: account }, partner)).body.error_type).toBe('NOT_FOUND');
    expect((await call('role/get', { uuid: role }, partner)).body.error_type).toBe('NOT_FOUND');
    expect((await call('role/delete', { uuid: role }, partner)).body.error_type).toBe('NOT_FOUND');
    expect((await call('role/list', { account_id: partnerAccount }, partner)).body.roles).toEqual([]);
    expect((await call('role/get', { uuid: 'made-up' })).body.error_type).toBe('NOT_FOUND');
  });

  it('a role change reaches its holders at their next call, on the account and in a group', async () => {
    const viewer = await server.api.login('viewer@demo.local');
    const users = () => call('account/user/list', { uuid: account }, viewer);
    expect((await users()).body.error_type).toBe('NOT_PERMITTED');
    const office = await addRole('Office', 'account_user_view');
    const given = await call('account/user/set', { uuid: account, user_id: ids.viewer!, role_id: office });
    expect(given.body.account_role).toEqual({ uuid: office, name: 'Office' });
    expect((await users()).body.status).toBe('OK');
    await call('role/set', { uuid: office, permissions: 'audit_view' });
    expect((await users()).body.error_type).toBe('NOT_PERMITTED');

    // In a group: the viewer joins Cardiology with a role; what they may do there follows the role.
    const reader = await addRole('Cardiology reader', 'study_view');
    const cardiology = groups['Cardiology']!;
    const joined = await call('group/user/add', { uuid: cardiology, user_id: ids.viewer!, role_id: reader });
    expect(joined.body).toMatchObject({ status: 'OK', role: { uuid: reader }, permissions: ['study_view'] });
    const namespace = (
      await server.ctx.db.kysely
        .selectFrom('groups')
        .select('namespace_id')
        .where('uuid', '=', cardiology)
        .executeTakeFirstOrThrow()
    ).namespace_id;
    const perms = () => call('session/permissions', { namespace_id: namespace }, viewer);
    expect((await perms()).body).toMatchObject({ study_view: 1, study_upload: 0 });
    await call('role/set', { uuid: reader, permissions: 'study_view,study_upload' });
    expect((await perms()).body).toMatchObject({ study_view: 1, study_upload: 1 });

    // A held role is not deleted; once nobody holds it, it is.
    const held = await call('role/delete', { uuid: reader });
    expect(held.body).toMatchObject({ error_type: 'IN_USE', error_subtype: 'role' });
    expect((await call('role/get', { uuid: reader })).body.holders).toBe(1);
    await call('group/user/delete', { uuid: cardiology, user_id: ids.viewer! });
    expect((await perms()).body.error_type).toBe('NOT_MEMBER');
    expect((await call('role/delete', { uuid: reader })).body.status).toBe('OK');
    expect((await call('role/get', { uuid: reader })).body.error_type).toBe('NOT_FOUND');
    await call('account/user/set', { uuid: account, user_id: ids.viewer!, role_id: '' });
    expect(
      (await call('account/user/get', { uuid: account, user_id: ids.viewer! })).body.account_role,
    ).toBeNull();
  });

  it('a member who edits roles or users cannot raise what they themselves hold', async () => {
    const editors = await addRole('Editors', 'role_view,role_edit,account_user_view,account_user_edit');
    const other = await addRole('Others', 'study_view');
    await call('account/user/set', { uuid: account, user_id: ids.gatekeeper!, role_id: editors });
    const gatekeeper = await server.api.login('gatekeeper@demo.local');
    // Another role: theirs to change, within what they hold (they hold study_download in PACS
    // Intake, not study_star: decision 0052).
    expect(
      (await call('role/set', { uuid: other, permissions: 'study_view,study_download' }, gatekeeper)).body
        .status,
    ).toBe('OK');
    expect(
      (await call('role/set', { uuid: other, permissions: 'study_view,study_star' }, gatekeeper)).body,
    ).toMatchObject({ error_type: 'NOT_PERMITTED', error_subtype: 'beyond_own_permissions' });
    const before = await roleRows();
    const own = await call('role/set', { uuid: editors, permissions: 'audit_view,role_edit' }, gatekeeper);
    expect(own.body).toMatchObject({ error_type: 'NOT_PERMITTED', error_subtype: 'own_role' });
    expect((await call('role/delete', { uuid: editors }, gatekeeper)).body.error_subtype).toBe('own_role');
    const self = await call(
      'account/user/set',
      { uuid: account, user_id: ids.gatekeeper!, role_id: other },
      gatekeeper,
    );
    expect(self.body).toMatchObject({ error_type: 'NOT_PERMITTED', error_subtype: 'own_role' });
    expect(await roleRows()).toEqual(before);
    // A role of another account, or a made-up one, is no role to give.
    const partner = await server.api.login('partner@demo.local');
    const foreign = await call(
      'role/add',
      { account_id: partnerAccount, name: 'Foreign', permissions: '' },
      partner,
    );
    for (const roleId of [foreign.body.uuid, 'made-up']) {
      const answer = await call('account/user/set', {
        uuid: account,
        user_id: ids.clinician!,
        role_id: roleId,
      });
      expect(answer.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'role_id' });
    }
    await call('account/user/set', { uuid: account, user_id: ids.gatekeeper!, role_id: '' });
  });
});
