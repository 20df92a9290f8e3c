import { LABEL_MESSAGES, MAX_LABEL_OVERRIDES } from '@imaging-inbox/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountIdOf } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

describe.each(DIALECTS)('account label overrides (label/list, label/set, label/delete) on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let clinician: string;
  let partner: string;
  let accountId: string;

  const db = () => server.ctx.db.kysely;
  const rows = () =>
    db().selectFrom('label_overrides').selectAll().orderBy('language').orderBy('key').execute();
  const audits = (action: string) =>
    db()
      .selectFrom('audit_events')
      .select(['object_id', 'detail', 'account_id'])
      .where('action', '=', action)
      .orderBy('id')
      .execute();

  beforeAll(async () => {
    server = await startTestServer(dialect, { SEED_STUDIES: '2' });
    admin = await server.api.login('admin@demo.local');
    clinician = await server.api.login('clinician@demo.local');
    partner = await server.api.login('partner@demo.local');
    accountId = await accountIdOf(server.ctx.db, 'Demo Hospital');
  });
  afterAll(() => server?.stop());

  it('an admin rewords a label; every member of the account reads it; a second save replaces it', async () => {
    const set = await server.api.call(
      'label/set',
      { account_id: accountId, language: 'en', key: 'Inbox', text: 'Worklist' },
      admin,
    );
    expect(set.body).toMatchObject({
      status: 'OK',
      label: { language: 'en', key: 'Inbox', text: 'Worklist' },
    });
    await server.api.call(
      'label/set',
      { account_id: accountId, language: 'fr', key: 'Inbox', text: 'Boîte' },
      admin,
    );
    await server.api.call(
      'label/set',
      { account_id: accountId, language: 'fr', key: 'Inbox', text: 'Arrivées' },
      admin,
    );

    // Without account_id: the caller's first account, the one the session opens on.
    const list = await server.api.call('label/list', {}, clinician);
    expect(list.body).toMatchObject({
      status: 'OK',
      labels: [
        { language: 'en', key: 'Inbox', text: 'Worklist' },
        { language: 'fr', key: 'Inbox', text: 'Arrivées' },
      ],
    });
    expect(await rows()).toHaveLength(2);
    const audit = await audits('LABEL_SET');
    expect(audit.map((a) => [a.object_id, a.account_id])).toEqual([
      ['en:Inbox', accountId],
      ['fr:Inbox', accountId],
      ['fr:Inbox', accountId],
    ]);
    expect(JSON.parse(audit[2]!.detail!)).toMatchObject({ text: 'Arrivées', previous: 'Boîte' });
  });

  it('refuses bad input with a clear error and changes nothing', async () => {
    const before = await rows();
    const cases: [Record<string, string>, string, string, unknown][] = [
      [
        { language: 'de', key: 'Inbox', text: 'Eingang' },
        'INVALID_FIELD',
        'language',
        LABEL_MESSAGES.languageInvalid,
      ],
      [
        { language: 'fr', key: 'k'.repeat(501), text: 'x' },
        'INVALID_FIELD',
        'key',
        LABEL_MESSAGES.keyTooLong,
      ],
      [
        { language: 'fr', key: 'Inbox', text: 't'.repeat(1001) },
        'INVALID_FIELD',
        'text',
        LABEL_MESSAGES.textTooLong,
      ],
      [{ language: 'fr', key: 'Inbox', text: '   ' }, 'MISSING_FIELDS', 'text', undefined],
      [{ language: 'fr', key: '', text: 'x' }, 'MISSING_FIELDS', 'key', undefined],
    ];
    for (const [fields, type, subtype, data] of cases) {
      const { body } = await server.api.call('label/set', { account_id: accountId, ...fields }, admin);
      expect(body, JSON.stringify(fields).slice(0, 80)).toMatchObject({ status: 'ERROR', error_type: type });
      expect(String(body.error_subtype)).toContain(subtype);
      if (data) expect(body.error_data).toBe(data);
    }
    const gone = await server.api.call(
      'label/delete',
      { account_id: accountId, language: 'es', key: 'Inbox' },
      admin,
    );
    expect(gone.body).toMatchObject({ error_type: 'NOT_FOUND', error_subtype: LABEL_MESSAGES.notFound });
    expect(await rows()).toEqual(before);
  });

  it('only label_edit holders change labels; outsiders do not find the account', async () => {
    const before = await rows();
    const member = await server.api.call(
      'label/set',
      { account_id: accountId, language: 'en', key: 'Inbox', text: 'Mine' },
      clinician,
    );
    expect(member.body).toMatchObject({ error_type: 'NOT_PERMITTED' });
    const deleted = await server.api.call(
      'label/delete',
      { account_id: accountId, language: 'en', key: 'Inbox' },
      clinician,
    );
    expect(deleted.body).toMatchObject({ error_type: 'NOT_PERMITTED' });
    for (const call of ['label/list', 'label/set', 'label/delete']) {
      const { body } = await server.api.call(
        call,
        { account_id: accountId, language: 'en', key: 'Inbox', text: 'Theirs' },
        partner,
      );
      expect(body, call).toMatchObject({ error_type: 'NOT_FOUND' });
    }
    // The partner's own account has no overrides of ours.
    expect((await server.api.call('label/list', {}, partner)).body.labels).toEqual([]);
    expect(await rows()).toEqual(before);
  });

  it('deletes an override, audited with the text it had', async () => {
    const { body } = await server.api.call(
      'label/delete',
      { account_id: accountId, language: 'fr', key: 'Inbox' },
      admin,
    );
    expect(body.status).toBe('OK');
    expect((await rows()).map((r) => `${r.language}:${r.key}`)).toEqual(['en:Inbox']);
    const [audit] = await audits('LABEL_DELETE');
    expect(audit!.object_id).toBe('fr:Inbox');
    expect(JSON.parse(audit!.detail!)).toMatchObject({ previous: 'Arrivées' });
  });

  it(`keeps at most ${MAX_LABEL_OVERRIDES} overrides per account, still letting existing ones change`, async () => {
    const existing = (await rows()).length;
    const filler = Array.from({ length: MAX_LABEL_OVERRIDES - existing }, (_, i) => ({
      account_id: accountId,
      language: 'es',
      key: `Label ${i}`,
      text: `Etiqueta ${i}`,
      updated_by: 'seed',
      updated: 0,
    }));
    for (let i = 0; i < filler.length; i += 200) {
      await db()
        .insertInto('label_overrides')
        .values(filler.slice(i, i + 200))
        .execute();
    }
    const refused = await server.api.call(
      'label/set',
      { account_id: accountId, language: 'fr', key: 'Shared with me', text: 'Partagés' },
      admin,
    );
    expect(refused.body).toMatchObject({ error_type: 'INVALID_FIELD', error_data: LABEL_MESSAGES.tooMany });
    const changed = await server.api.call(
      'label/set',
      { account_id: accountId, language: 'es', key: 'Label 0', text: 'Otra' },
      admin,
    );
    expect(changed.body.status).toBe('OK');
    expect(await rows()).toHaveLength(MAX_LABEL_OVERRIDES);
  });
});
