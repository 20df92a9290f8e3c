import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

/**
 * An account's de-identification profiles (anonymization/*, decision 0067): what they hold, what
 * is refused (nothing changed), who may see and change them, and the account secret's key file.
 */
describe.each(DIALECTS)('de-identification profiles on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let partnerAdmin: string;
  let clinician: string;
  let demoAccount: string;
  let partnerAccount: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.api.login('admin@demo.local');
    partnerAdmin = await server.api.login('partner@demo.local');
    clinician = await server.api.login('clinician@demo.local');
    const accounts = await server.ctx.db.kysely.selectFrom('accounts').select(['uuid', 'vanity']).execute();
    demoAccount = accounts.find((a) => a.vanity === 'demo')!.uuid;
    partnerAccount = accounts.find((a) => a.vanity === 'partner')!.uuid;
  });
  afterAll(() => server?.stop());

  const call = (name: string, params: Record<string, string | number>, sid: string) =>
    server.api.call(name, params, sid);
  const count = async () =>
    Number(
      (
        await server.ctx.db.kysely
          .selectFrom('anonymization_profiles')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('adds, reads, lists, changes and deletes a profile, each change in the audit log', async () => {
    const rules = [
      { tag: '00081030', action: 'rewrite', pattern: '^CT (.*)$', replacement: 'Teaching $1' },
      { tag: '00100040', action: 'keep' },
      { tag: '00080080', action: 'replace', value: 'Teaching hospital' },
    ];
    const added = await call(
      'anonymization/add',
      {
        account_id: demoAccount,
        name: '  Research  ',
        options: JSON.stringify(['cleanDescriptors', 'retainLongitudinalModifiedDates', 'cleanDescriptors']),
        rules: JSON.stringify(rules),
        keep_burned_in: 1,
      },
      admin,
    );
    expect(added.status).toBe(200);
    const profile = added.body;
    expect(profile).toMatchObject({
      account_id: demoAccount,
      name: 'Research',
      options: ['cleanDescriptors', 'retainLongitudinalModifiedDates'],
      keep_burned_in: 1,
      keep_attachments: 0,
      rules: [
        { tag: '00081030', action: 'rewrite', pattern: '^CT (.*)$', replacement: 'Teaching $1' },
        { tag: '00100040', action: 'keep' },
        { tag: '00080080', action: 'replace', value: 'Teaching hospital' },
      ],
    });
    expect((await call('anonymization/get', { uuid: profile.uuid }, admin)).body).toMatchObject(profile);
    const list = await call('anonymization/list', { account_id: demoAccount }, admin);
    expect(list.body.profiles.map((p: { name: string }) => p.name)).toContain('Research');

    const set = await call(
      'anonymization/set',
      { uuid: profile.uuid, options: 'retainUids', keep_burned_in: 0 },
      admin,
    );
    expect(set.body).toMatchObject({ name: 'Research', options: ['retainUids'], keep_burned_in: 0 });
    expect(set.body.rules).toHaveLength(3);

    expect((await call('anonymization/delete', { uuid: profile.uuid }, admin)).status).toBe(200);
    expect((await call('anonymization/get', { uuid: profile.uuid }, admin)).body.error_type).toBe(
      'NOT_FOUND',
    );
    const events = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select('action')
      .where('object_type', '=', 'anonymization')
      .where('object_id', '=', profile.uuid)
      .execute();
    expect(events.map((e) => e.action).sort()).toEqual(['CREATE', 'DELETE', 'EDIT']);
  });

  it('refuses bad input with the field named, and changes nothing', async () => {
    const before = await count();
    const bad: [Record<string, string>, string][] = [
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 'A', options: '["retainEverything"]' }, 'options'],
      [{ name: 'A', options: '{' }, 'options'],
      [{ name: 'A', rules: '[{"tag":"0010","action":"keep"}]' }, 'rules'],
      [{ name: 'A', rules: '[{"tag":"00100010","action":"shred"}]' }, 'rules'],
      [{ name: 'A', rules: '[{"tag":"00100010","action":"keep","extra":1}]' }, 'rules'],
      // RE2 refuses backreferences: a pattern that could backtrack is never saved (decision 0053).
      [
        {
          name: 'A',
          rules: '[{"tag":"00081030","action":"rewrite","pattern":"(a+)\\\\1","replacement":""}]',
        },
        'rules',
      ],
      [
        {
          name: 'A',
          rules: JSON.stringify([
            { tag: '00081030', action: 'rewrite', pattern: 'a'.repeat(257), replacement: '' },
          ]),
        },
        'rules',
      ],
      [
        {
          name: 'A',
          rules: JSON.stringify(
            Array.from({ length: 51 }, (_, i) => ({
              tag: `0009${String(i).padStart(4, '0')}`,
              action: 'remove',
            })),
          ),
        },
        'rules',
      ],
      [
        {
          name: 'A',
          rules: JSON.stringify([
            { tag: '00100010', action: 'keep' },
            { tag: '00100010', action: 'remove' },
          ]),
        },
        'rules',
      ],
      [{ name: 'A', keep_burned_in: 'yes' }, 'flag'],
      [{ name: 'A', groups: '["no-such-group"]' }, 'groups'],
      [{ name: 'A', groups: '[1]' }, 'groups'],
    ];
    for (const [fields, field] of bad) {
      const answer = await call('anonymization/add', { account_id: demoAccount, ...fields }, admin);
      expect(answer.body.error_type, JSON.stringify(fields)).toBe('INVALID_FIELD');
      expect(answer.body.error_subtype, JSON.stringify(fields)).toBe(field);
    }
    expect(await count()).toBe(before);
  });

  it('names the groups it de-identifies into, one profile per group, groups of its own account only', async () => {
    const groups = await server.api.groups(admin);
    const cardiology = groups.find((g) => g.name === 'Cardiology')!.uuid;
    const teaching = groups.find((g) => g.name === 'Teaching Files')!.uuid;
    const added = await call(
      'anonymization/add',
      { account_id: demoAccount, name: 'Cardio research', groups: cardiology },
      admin,
    );
    expect(added.body.groups).toEqual([cardiology]);
    // Teaching Files is the demo Teaching Files profile's already.
    const taken = await call(
      'anonymization/set',
      { uuid: added.body.uuid, groups: JSON.stringify([cardiology, teaching]) },
      admin,
    );
    expect([taken.body.error_type, taken.body.error_subtype]).toEqual(['INVALID_FIELD', 'groups']);
    const referrals = (await server.api.groups(partnerAdmin)).find((g) => g.name === 'Referrals')!.uuid;
    const foreign = await call('anonymization/set', { uuid: added.body.uuid, groups: referrals }, admin);
    expect([foreign.body.error_type, foreign.body.error_subtype]).toEqual(['INVALID_FIELD', 'groups']);
    expect((await call('anonymization/get', { uuid: added.body.uuid }, admin)).body.groups).toEqual([
      cardiology,
    ]);
    // It de-identifies Cardiology: not deleted until it no longer does (decision 0073).
    expect((await call('anonymization/delete', { uuid: added.body.uuid }, admin)).body.error_type).toBe(
      'IN_USE',
    );
    await call('anonymization/set', { uuid: added.body.uuid, groups: '' }, admin);
    expect((await call('anonymization/delete', { uuid: added.body.uuid }, admin)).status).toBe(200);
  });

  it('keeps each account to its own: another admin finds nothing, a member without the permission is refused', async () => {
    const mine = (await call('anonymization/add', { account_id: demoAccount, name: 'Mine' }, admin)).body;
    for (const [name, params] of [
      ['anonymization/get', { uuid: mine.uuid }],
      ['anonymization/set', { uuid: mine.uuid, name: 'Taken' }],
      ['anonymization/delete', { uuid: mine.uuid }],
      ['anonymization/list', { account_id: demoAccount }],
      ['anonymization/add', { account_id: demoAccount, name: 'Intruder' }],
    ] as const) {
      expect((await call(name, params, partnerAdmin)).body.error_type, name).toBe('NOT_FOUND');
      expect((await call(name, params, clinician)).body.error_type, name).toBe('NOT_PERMITTED');
    }
    expect((await call('anonymization/get', { uuid: mine.uuid }, admin)).body.name).toBe('Mine');
    expect(
      (await call('anonymization/list', { account_id: partnerAccount }, partnerAdmin)).body.profiles,
    ).toEqual([]);
  });

  it('a member given anonymization_view reads the profiles and changes none', async () => {
    const role = (
      await call(
        'role/add',
        { account_id: demoAccount, name: 'Privacy reader', permissions: 'anonymization_view' },
        admin,
      )
    ).body;
    const email = `privacy-reader-${dialect}@demo.local`;
    expect(
      (await call('account/user/add', { uuid: demoAccount, email, role_id: role.uuid }, admin)).status,
    ).toBe(200);
    const mail = await server.ctx.db.kysely
      .selectFrom('outbox')
      .select('body')
      .where('to_address', '=', email)
      .executeTakeFirstOrThrow();
    const token = decodeURIComponent(/reset-password\?token=([A-Za-z0-9_%-]+)/.exec(mail.body)![1]!);
    await call('user/password/reset', { token, password: 'Reader-pass-2024' }, '');
    const reader = await server.api.login(email, 'Reader-pass-2024');
    const list = await call('anonymization/list', { account_id: demoAccount }, reader);
    expect(list.status).toBe(200);
    const uuid = list.body.profiles[0].uuid as string;
    expect((await call('anonymization/get', { uuid }, reader)).status).toBe(200);
    expect((await call('anonymization/set', { uuid, name: 'Changed' }, reader)).body.error_type).toBe(
      'NOT_PERMITTED',
    );
    expect(
      (await call('anonymization/add', { account_id: demoAccount, name: 'X' }, reader)).body.error_type,
    ).toBe('NOT_PERMITTED');
    expect((await call('anonymization/delete', { uuid }, reader)).body.error_type).toBe('NOT_PERMITTED');
  });

  it('derives each account secret from a master key file outside the database, the same each time', async () => {
    const keyFile = path.join(server.dataDir, 'deidentification.key');
    const deidentifier = server.ctx.services.deidentifier;
    const profile = (await call('anonymization/add', { account_id: demoAccount, name: 'Keyed' }, admin)).body;
    await deidentifier.bind(demoAccount, profile.uuid);
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(keyFile, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    // Another account cannot use this account's profile.
    await expect(deidentifier.bind(partnerAccount, profile.uuid)).rejects.toMatchObject({
      errorType: 'INVALID_FIELD',
    });
  });
});
