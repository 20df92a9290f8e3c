import { ACCOUNT_LANGUAGE_MESSAGES } from '@imaging-inbox/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMail } from '../support/mail-decode.js';
import { SmtpSink } from '../support/smtp-sink.js';
import { accountIdOf } from '../support/demo-world.js';
import { setMailEvents } from '../support/mail-events.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { eventually } from '../support/until.js';

/**
 * account/set with `settings.default_language`: the account's admins choose the language its users
 * who chose none read their e-mails in; a bad value or a non-admin is refused and nothing changes.
 */
describe.each(DIALECTS)('the account default language (account/set) on %s', (dialect) => {
  const sink = new SmtpSink();
  let server: TestServer;
  let admin: string;
  let clinician: string;
  let partner: string;
  let accountId: string;

  const db = () => server.ctx.db.kysely;
  const stored = async () =>
    (
      await db()
        .selectFrom('settings')
        .select('value')
        .where('owner', '=', `account:${accountId}`)
        .where('key', '=', 'default_language')
        .executeTakeFirst()
    )?.value;
  const audits = () =>
    db()
      .selectFrom('audit_events')
      .select(['object_id', 'detail', 'account_id', 'user_id'])
      .where('action', '=', 'ACCOUNT_SET')
      .orderBy('id')
      .execute();
  const setLanguage = (value: string, sid: string, extra: Record<string, string> = {}) =>
    server.api.call('account/set', { uuid: accountId, 'settings.default_language': value, ...extra }, sid);

  beforeAll(async () => {
    await sink.start();
    server = await startTestServer(dialect, { SEED_STUDIES: '4', SMTP_URL: sink.url, MAIL_RETRY_MS: '20' });
    admin = await server.api.login('admin@demo.local');
    clinician = await server.api.login('clinician@demo.local');
    partner = await server.api.login('partner@demo.local');
    accountId = await accountIdOf(server.ctx.db, 'Demo Hospital');
  });
  afterAll(async () => {
    await server?.stop();
    await sink.stop();
  });

  it('an admin sets French; account/get answers it; the change is audited', async () => {
    const set = await setLanguage('fr', admin);
    expect(set.body, JSON.stringify(set.body)).toMatchObject({
      status: 'OK',
      settings: { default_language: 'fr' },
    });
    expect(await stored()).toBe('fr');
    const got = await server.api.call('account/get', { uuid: accountId }, clinician);
    expect(got.body.settings.default_language).toBe('fr');
    const [audit] = await audits();
    expect(audit!.object_id).toBe(accountId);
    expect(audit!.account_id).toBe(accountId);
    expect(JSON.parse(audit!.detail!)).toEqual({ setting: 'default_language', value: 'fr', previous: '' });
  });

  it('a user who chose no language then gets the share mail in French', async () => {
    expect((await server.api.call('user/set', { language: '' }, clinician)).body.language).toBe('');
    const cardiology = await server.api.namespaceOf(clinician, 'Cardiology');
    await setMailEvents(server.api, clinician, cardiology, { event_share: 1 });
    const groups = await server.api.groups(admin);
    const study = await db()
      .selectFrom('studies')
      .select('uuid')
      .where('namespace_id', '!=', cardiology)
      .where('deleted', 'is', null)
      .executeTakeFirstOrThrow();
    const before = sink.to('clinician@demo.local').length;
    const shared = await server.api.call(
      'study/share',
      { uuid: study.uuid, group_id: groups.find((g) => g.name === 'Cardiology')!.uuid },
      admin,
    );
    expect(shared.body.status, JSON.stringify(shared.body)).toBe('OK');
    const mail = await eventually(() => {
      const received = sink.to('clinician@demo.local');
      return received.length > before ? readMail(received[received.length - 1]!.raw) : undefined;
    }, 'the share mail');
    expect(mail.subject).toBe('Un examen a été partagé avec Cardiology');
  });

  it('refuses a language the product does not speak, or another setting, and changes nothing', async () => {
    for (const bad of ['de', 'FR', 'english']) {
      const answer = await setLanguage(bad, admin);
      expect(answer.body).toMatchObject({
        status: 'ERROR',
        error_type: 'INVALID_FIELD',
        error_subtype: 'settings.default_language',
        error_data: ACCOUNT_LANGUAGE_MESSAGES.invalid,
      });
    }
    const other = await setLanguage('es', admin, { 'settings.enable_inbox_view': '0' });
    expect(other.body).toMatchObject({
      error_type: 'INVALID_FIELD',
      error_subtype: 'settings.enable_inbox_view',
      error_data: ACCOUNT_LANGUAGE_MESSAGES.notSettable,
    });
    const missing = await server.api.call('account/set', { uuid: accountId }, admin);
    expect(missing.body).toMatchObject({ error_type: 'MISSING_FIELDS' });
    expect(await stored()).toBe('fr');
    expect(await audits()).toHaveLength(1);
  });

  it('refuses a member who is not an admin, and an outsider does not find the account', async () => {
    expect((await setLanguage('es', clinician)).body).toMatchObject({ error_type: 'NOT_PERMITTED' });
    expect((await setLanguage('es', partner)).body).toMatchObject({ error_type: 'NOT_FOUND' });
    expect(await stored()).toBe('fr');
    expect(await audits()).toHaveLength(1);
  });

  it('an empty value forgets the choice: English again', async () => {
    const cleared = await setLanguage('', admin);
    expect(cleared.body.status).toBe('OK');
    expect(cleared.body.settings.default_language).toBeUndefined();
    expect(await stored()).toBeUndefined();
    const audit = await audits();
    expect(JSON.parse(audit[1]!.detail!)).toEqual({ setting: 'default_language', value: '', previous: 'fr' });
  });
});
