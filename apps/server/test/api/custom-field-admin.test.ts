import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstAccountOf } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

describe.each(DIALECTS)('custom field definitions (customfield/add|set|delete) on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let account: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.api.login('admin@demo.local');
    account = await firstAccountOf(server.api, admin);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const call = (path: string, params: Record<string, string>, sid = admin) =>
    server.api.call(path, params, sid);
  const rows = () => server.ctx.db.kysely.selectFrom('custom_fields').selectAll().orderBy('uuid').execute();

  it('defines, changes and deletes a field that the Exchange tab then lists', async () => {
    const added = await call('customfield/add', {
      account_id: account,
      name: 'Contrast',
      type: 'select',
      required: '1',
      options: '[{"value":"none","field_label":"None"},"iodine"]',
    });
    expect(added.body).toMatchObject({
      status: 'OK',
      name: 'Contrast',
      type: 'select',
      required: 1,
      options: [
        { value: 'none', field_label: 'None' },
        { value: 'iodine', field_label: 'iodine' },
      ],
    });
    const listed = await call('customfield/list', { account_id: account });
    expect(listed.body.customfields.map((f: { name: string }) => f.name)).toContain('Contrast');
    const changed = await call('customfield/set', {
      uuid: added.body.uuid,
      required: '0',
      options: 'none, gadolinium',
    });
    expect(changed.body).toMatchObject({
      required: 0,
      options: [{ value: 'none' }, { value: 'gadolinium' }],
    });
    const memo = await call('customfield/add', { account_id: account, name: 'Notes', type: 'memo' });
    expect(memo.body).toMatchObject({ type: 'memo', options: [], required: 0 });
    expect((await call('customfield/delete', { uuid: added.body.uuid })).body.status).toBe('OK');
    expect((await call('customfield/delete', { uuid: added.body.uuid })).body.error_type).toBe('NOT_FOUND');
  });

  it('refuses bad definitions and callers without group_edit with a clear error, changing nothing', async () => {
    const before = await rows();
    const existing = before[0]!;
    for (const [path, params, type, subtype] of [
      ['customfield/add', { name: 'X', type: 'checkbox' }, 'INVALID_FIELD', 'type'],
      ['customfield/add', { name: 'X' }, 'MISSING_FIELDS', 'type'],
      ['customfield/add', { name: 'X', type: 'radio' }, 'INVALID_FIELD', 'options'],
      ['customfield/add', { name: 'X', type: 'text', options: 'a' }, 'INVALID_FIELD', 'options'],
      ['customfield/add', { name: 'X', type: 'select', options: 'a,a' }, 'INVALID_FIELD', 'options'],
      [
        'customfield/add',
        { name: 'X', type: 'select', options: '[{"value":"a"}]' },
        'INVALID_FIELD',
        'options',
      ],
      ['customfield/add', { name: existing.name, type: 'text' }, 'INVALID_FIELD', 'name'],
      ['customfield/add', { name: 'X', type: 'text', required: 'maybe' }, 'INVALID_FIELD', 'flag'],
      ['customfield/set', { uuid: 'made-up', name: 'Y' }, 'NOT_FOUND', 'customfield'],
    ] as const) {
      const answer = await call(path, { account_id: account, ...params });
      expect(answer.body, JSON.stringify(params)).toMatchObject({ error_type: type, error_subtype: subtype });
    }
    const clinician = await server.api.login('clinician@demo.local');
    const refused = await call(
      'customfield/add',
      { account_id: account, name: 'Z', type: 'text' },
      clinician,
    );
    expect(refused.body.error_type).toBe('NOT_PERMITTED');
    expect((await call('customfield/delete', { uuid: existing.uuid }, clinician)).body.error_type).toBe(
      'NOT_PERMITTED',
    );
    const partner = await server.api.login('partner@demo.local');
    expect((await call('customfield/delete', { uuid: existing.uuid }, partner)).body.error_type).toBe(
      'NOT_FOUND',
    );
    expect(await rows()).toEqual(before);
  });
});
