import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstAccountOf, groupIdsByName, userIdsByName } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

describe.each(DIALECTS)(
  'group administration (account/group/list, group/*, group/user/*) on %s',
  (dialect) => {
    let server: TestServer;
    let admin: string;
    let account: string;
    const ids: Record<string, string> = {};
    const groups: Record<string, string> = {};

    beforeAll(async () => {
      server = await startTestServer(dialect);
      admin = await server.api.login('admin@demo.local');
      account = await firstAccountOf(server.api, admin);
      Object.assign(ids, await userIdsByName(server.ctx.db));
      Object.assign(groups, await groupIdsByName(server.ctx.db));
    });
    afterAll(async () => {
      await server?.stop();
    });

    const call = (path: string, params: Record<string, string>, sid = admin) =>
      server.api.call(path, params, sid);
    const snapshot = async () => {
      const db = server.ctx.db.kysely;
      return {
        groups: await db.selectFrom('groups').selectAll().orderBy('uuid').execute(),
        namespaces: await db.selectFrom('namespaces').select(['id', 'name']).orderBy('id').execute(),
        members: await db
          .selectFrom('group_members')
          .selectAll()
          .orderBy('group_id')
          .orderBy('user_id')
          .execute(),
      };
    };
    const addRole = async (name: string, permissions: string) =>
      (await call('role/add', { account_id: account, name, permissions })).body.uuid as string;

    it('lists every group of the account with its members and studies', async () => {
      const list = await call('account/group/list', { uuid: account });
      expect(list.body.status).toBe('OK');
      const byName = Object.fromEntries(list.body.groups.map((g: { name: string }) => [g.name, g]));
      expect(Object.keys(byName)).toEqual([
        'Cardiology',
        'Emergency',
        'PACS Archive',
        'PACS Intake',
        'Teaching Files',
      ]);
      expect(byName['Emergency']).toMatchObject({ type: 'CLOUD', members: 2, uuid: groups['Emergency'] });
      expect(byName['Emergency'].studies).toBeGreaterThan(0);
      expect(byName['PACS Intake']).toMatchObject({ type: 'GATEKEEPER', members: 1 });
    });

    it('adds a group of each type, renames it and deletes it while it holds no study', async () => {
      const added = await call('group/add', { account_id: account, name: ' Radiology ', type: 'library' });
      expect(added.body).toMatchObject({
        status: 'OK',
        name: 'Radiology',
        type: 'LIBRARY',
        members: 0,
        studies: 0,
      });
      const uuid = added.body.uuid as string;
      for (const type of ['CLOUD', 'GATEKEEPER']) {
        const other = await call('group/add', { account_id: account, name: `New ${type}`, type });
        expect(other.body.type).toBe(type);
        expect((await call('group/delete', { uuid: other.body.uuid })).body.status).toBe('OK');
      }
      // An admin sees it in the inbox's groups at once.
      const inbox = await call('group/list', { account_id: account });
      expect(inbox.body.groups.map((g: { name: string }) => g.name)).toContain('Radiology');
      const renamed = await call('group/set', { uuid, name: 'Imaging' });
      expect(renamed.body).toMatchObject({ status: 'OK', name: 'Imaging' });
      const ns = await server.ctx.db.kysely
        .selectFrom('namespaces')
        .select('name')
        .where('id', '=', added.body.namespace_id)
        .executeTakeFirstOrThrow();
      expect(ns.name).toBe('Imaging');
      // Members with a role, then the group goes with them.
      const role = await addRole('Imaging staff', 'study_view');
      await call('group/user/add', { uuid, user_id: ids.viewer!, role_id: role });
      expect((await call('group/delete', { uuid })).body.status).toBe('OK');
      expect((await call('group/get', { uuid })).body.error_type).toBe('NOT_FOUND');
      const left = await server.ctx.db.kysely
        .selectFrom('group_members')
        .select('user_id')
        .where('group_id', '=', uuid)
        .execute();
      expect(left).toEqual([]);
    });

    it('refuses to delete a group holding studies or fed by a DICOM sender, and bad input, changing nothing', async () => {
      const before = await snapshot();
      const full = await call('group/delete', { uuid: groups['Emergency']! });
      expect(full.body).toMatchObject({ error_type: 'NOT_EMPTY', error_subtype: 'studies' });
      for (const [path, params, type, subtype] of [
        ['group/add', { account_id: account, name: 'X', type: 'PRIVATE' }, 'INVALID_FIELD', 'type'],
        ['group/add', { account_id: account, name: '  ', type: 'CLOUD' }, 'MISSING_FIELDS', 'name'],
        ['group/add', { account_id: account, name: 'emergency', type: 'CLOUD' }, 'INVALID_FIELD', 'name'],
        ['group/add', { account_id: account, name: 'z'.repeat(101), type: 'CLOUD' }, 'INVALID_FIELD', 'name'],
        ['group/set', { uuid: groups['Cardiology']!, name: 'Emergency' }, 'INVALID_FIELD', 'name'],
        ['group/set', { uuid: 'made-up', name: 'Y' }, 'NOT_FOUND', 'group'],
        ['group/delete', { uuid: 'made-up' }, 'NOT_FOUND', 'group'],
      ] as const) {
        const answer = await call(path, params);
        expect(answer.body, JSON.stringify(params)).toMatchObject({
          error_type: type,
          error_subtype: subtype,
        });
      }
      // A DICOM sender delivering into an empty group keeps it.
      const empty = await call('group/add', { account_id: account, name: 'Modality drop', type: 'CLOUD' });
      const node = await call('dicom/node/add', {
        account_id: account,
        ae_title: 'DROPAE',
        host: '127.0.0.1',
        group_id: empty.body.uuid,
      });
      expect(node.body.status, JSON.stringify(node.body)).toBe('OK');
      const fed = await call('group/delete', { uuid: empty.body.uuid });
      expect(fed.body).toMatchObject({ error_type: 'IN_USE', error_subtype: 'senders' });
      await call('dicom/node/delete', { uuid: node.body.uuid });
      expect((await call('group/delete', { uuid: empty.body.uuid })).body.status).toBe('OK');
      expect(await snapshot()).toEqual(before);
    });

    it('adds members with a role, changes their role, lists them and takes them out', async () => {
      const cardiology = groups['Cardiology']!;
      const reader = await addRole('Reader', 'study_view,study_download');
      const uploader = await addRole('Uploader', 'study_view,study_upload');
      const added = await call('group/user/add', {
        uuid: cardiology,
        user_id: ids.gatekeeper!,
        role_id: reader,
      });
      expect(added.body).toMatchObject({
        status: 'OK',
        uuid: ids.gatekeeper,
        email: 'gatekeeper@demo.local',
        role: { uuid: reader, name: 'Reader' },
        permissions: ['study_view', 'study_download'],
      });
      const changed = await call('group/user/add', {
        uuid: cardiology,
        user_id: ids.gatekeeper!,
        role_id: uploader,
      });
      expect(changed.body.role.name).toBe('Uploader');
      const list = await call('group/user/list', { uuid: cardiology });
      expect(list.body.users.map((u: { email: string }) => u.email)).toEqual([
        'clinician@demo.local',
        'gatekeeper@demo.local',
      ]);
      // A member from the demo world holds the permissions of their demo role.
      expect(list.body.users[0]).toMatchObject({ role: { name: 'Radiologist' } });
      expect(list.body.users[0].permissions).toContain('study_share');

      const gatekeeper = await server.api.login('gatekeeper@demo.local');
      const mine = await call('group/list', {}, gatekeeper);
      expect(mine.body.groups.map((g: { name: string }) => g.name)).toContain('Cardiology');

      const before = await snapshot();
      for (const [path, params, type, subtype] of [
        [
          'group/user/add',
          { uuid: cardiology, user_id: ids.partner!, role_id: reader },
          'INVALID_FIELD',
          'user_id',
        ],
        [
          'group/user/add',
          { uuid: cardiology, user_id: ids.viewer!, role_id: 'made-up' },
          'INVALID_FIELD',
          'role_id',
        ],
        ['group/user/add', { uuid: cardiology, user_id: ids.viewer! }, 'MISSING_FIELDS', 'role_id'],
        ['group/user/delete', { uuid: cardiology, user_id: ids.viewer! }, 'NOT_FOUND', 'user'],
      ] as const) {
        const answer = await call(path, params);
        expect(answer.body, JSON.stringify(params)).toMatchObject({
          error_type: type,
          error_subtype: subtype,
        });
      }
      expect(await snapshot()).toEqual(before);

      expect(
        (await call('group/user/delete', { uuid: cardiology, user_id: ids.gatekeeper! })).body.status,
      ).toBe('OK');
      const after = await call('group/list', {}, gatekeeper);
      expect(after.body.groups.map((g: { name: string }) => g.name)).not.toContain('Cardiology');
    });

    it('answers group/get to group_view holders for groups they are not in, granting nothing there', async () => {
      const viewer = await server.api.login('viewer@demo.local');
      // The viewer is in Emergency only: Cardiology is, to them, a made-up group.
      const before = await call('group/get', { uuid: groups['Cardiology']! }, viewer);
      expect(before.body).toMatchObject({ error_type: 'NOT_FOUND', error_subtype: 'group' });
      const partner = await server.api.login('partner@demo.local');

      const viewers = await addRole('Group readers', 'group_view');
      await call('account/user/set', { uuid: account, user_id: ids.viewer!, role_id: viewers });
      try {
        const cardiology = await call('group/get', { uuid: groups['Cardiology']! }, viewer);
        expect(cardiology.body).toMatchObject({
          status: 'OK',
          uuid: groups['Cardiology'],
          name: 'Cardiology',
          type: 'CLOUD',
          account_id: account,
        });
        // Reading the group's settings gives no right in it.
        expect(
          Object.values(cardiology.body.permissions as Record<string, number>).every((v) => v === 0),
        ).toBe(true);
        expect(cardiology.body).toHaveProperty('cloud_config');
        // In their own group they keep what their membership grants.
        const emergency = await call('group/get', { uuid: groups['Emergency']! }, viewer);
        expect(emergency.body.permissions.study_view).toBe(1);
        // Another account's administrator of groups does not find it, nor does a made-up id answer.
        expect((await call('group/get', { uuid: groups['Cardiology']! }, partner)).body.error_type).toBe(
          'NOT_FOUND',
        );
        expect((await call('group/get', { uuid: 'no-such-group' }, viewer)).body.error_type).toBe(
          'NOT_FOUND',
        );
      } finally {
        await call('account/user/set', { uuid: account, user_id: ids.viewer!, role_id: '' });
      }
      expect((await call('group/get', { uuid: groups['Cardiology']! }, viewer)).body.error_type).toBe(
        'NOT_FOUND',
      );
    });

    it('lets group_view holders see and group_edit holders change groups, never their own membership', async () => {
      const clinician = await server.api.login('clinician@demo.local');
      for (const [path, params] of [
        ['account/group/list', { uuid: account }],
        ['group/user/list', { uuid: groups['Emergency']! }],
        ['group/add', { account_id: account, name: 'Q', type: 'CLOUD' }],
        ['group/set', { uuid: groups['Emergency']!, name: 'Q' }],
      ] as const) {
        expect((await call(path, params, clinician)).body.error_type, path).toBe('NOT_PERMITTED');
      }
      const partner = await server.api.login('partner@demo.local');
      expect((await call('account/group/list', { uuid: account }, partner)).body.error_type).toBe(
        'NOT_FOUND',
      );
      expect((await call('group/user/list', { uuid: groups['Emergency']! }, partner)).body.error_type).toBe(
        'NOT_FOUND',
      );

      const viewers = await addRole('Group viewers', 'group_view');
      await call('account/user/set', { uuid: account, user_id: ids.clinician!, role_id: viewers });
      expect((await call('account/group/list', { uuid: account }, clinician)).body.status).toBe('OK');
      expect(
        (await call('group/add', { account_id: account, name: 'Q', type: 'CLOUD' }, clinician)).body
          .error_type,
      ).toBe('NOT_PERMITTED');
      const editors = await addRole('Group editors', 'group_view,group_edit');
      await call('account/user/set', { uuid: account, user_id: ids.clinician!, role_id: editors });
      const reader = await addRole('Emergency reader', 'study_view');
      const own = await call(
        'group/user/add',
        { uuid: groups['Emergency']!, user_id: ids.clinician!, role_id: reader },
        clinician,
      );
      expect(own.body).toMatchObject({ error_type: 'NOT_PERMITTED', error_subtype: 'own_role' });
      const other = await call(
        'group/user/add',
        { uuid: groups['Teaching Files']!, user_id: ids.viewer!, role_id: reader },
        clinician,
      );
      expect(other.body.status).toBe('OK');
      await call('account/user/set', { uuid: account, user_id: ids.clinician!, role_id: '' });
    });
  },
);
