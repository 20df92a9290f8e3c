import { authenticator } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstAccountOf, userIdsByName } from '../support/demo-world.js';
import { readMail } from '../support/mail-decode.js';
import { SmtpSink } from '../support/smtp-sink.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { eventually } from '../support/until.js';

/**
 * account/user/totp/reset tells the member by mail, through a real SMTP server: who reset their
 * codes (a reset they did not ask for leaves the password as the only factor), in their language;
 * nothing is mailed when there was nothing to reset or the reset was refused.
 */
describe.each(DIALECTS)('the mail to a member whose two-factor codes an admin reset, on %s', (dialect) => {
  const sink = new SmtpSink();
  let server: TestServer;
  let ids: Record<string, string>;
  let account: string;
  let admin: string;
  beforeAll(async () => {
    await sink.start();
    server = await startTestServer(dialect, { SEED_STUDIES: '0', SMTP_URL: sink.url, MAIL_RETRY_MS: '20' });
    ids = await userIdsByName(server.ctx.db);
    admin = await server.api.login('admin@demo.local');
    account = await firstAccountOf(server.api, admin);
  });
  afterAll(async () => {
    await server?.stop();
    await sink.stop();
  });

  const reset = async (userId: string, sid: string) =>
    (await server.api.call('account/user/totp/reset', { uuid: account, user_id: userId }, sid)).body;
  const mailsTo = (email: string) =>
    sink.received.filter((m) => m.to.includes(email)).map((m) => readMail(m.raw));
  const outboxRows = () =>
    server.ctx.db.kysely
      .selectFrom('outbox')
      .select(['to_address', 'kind'])
      .where('kind', '=', 'two_factor_reset')
      .execute();

  /** Turns codes on for `email` (as a phone would); `confirm` false leaves the enrolment unfinished. */
  async function enrol(email: string, confirm = true): Promise<void> {
    const sid = await server.api.login(email);
    const started = await server.api.call('user/totp/enrol', {}, sid);
    if (!confirm) return;
    const confirmed = await server.api.call(
      'user/totp/confirm',
      { otp: authenticator.generate(started.body.secret as string) },
      sid,
    );
    expect(confirmed.body.recovery_codes).toHaveLength(10);
  }

  it('mails the member who reset their codes, with where to sign in, and only once', async () => {
    await enrol('clinician@demo.local');
    expect(await reset(ids.clinician!, admin)).toEqual({ status: 'OK', removed: 1 });
    const [mail] = await eventually(
      () => mailsTo('clinician@demo.local')[0] && mailsTo('clinician@demo.local'),
      'the mail',
    );
    expect(mailsTo('clinician@demo.local')).toHaveLength(1);
    expect(mail!.subject).toBe('Your two-factor sign-in was reset');
    expect(mail!.text).toContain(
      '(admin@demo.local), an administrator of Demo Hospital, reset the two-factor sign-in of clinician@demo.local',
    );
    expect(mail!.text).toMatch(/\nhttps?:\/\/[^\s]+\/\n/);
    expect(mail!.text).toContain('If you did not ask for this, tell your administrator at once');
    expect(await outboxRows()).toEqual([{ to_address: 'clinician@demo.local', kind: 'two_factor_reset' }]);

    // Nothing left to reset: no second mail.
    expect(await reset(ids.clinician!, admin)).toEqual({ status: 'OK', removed: 0 });
    expect(await outboxRows()).toHaveLength(1);
  });

  it('writes it in the member’s own language', async () => {
    const sid = await server.api.login('viewer@demo.local');
    expect((await server.api.call('user/set', { language: 'fr' }, sid)).body.language).toBe('fr');
    await enrol('viewer@demo.local');
    expect(await reset(ids.viewer!, admin)).toMatchObject({ removed: 1 });
    const [mail] = await eventually(
      () => mailsTo('viewer@demo.local')[0] && mailsTo('viewer@demo.local'),
      'the mail',
    );
    expect(mailsTo('viewer@demo.local')).toHaveLength(1);
    expect(mail!.subject).toBe('Votre connexion en deux étapes a été réinitialisée');
    expect(mail!.text).toContain(
      'administrateur de Demo Hospital, a réinitialisé la connexion en deux étapes de viewer@demo.local',
    );
  });

  it('mails nothing for an unfinished enrolment removed, nor for a refused reset', async () => {
    const before = (await outboxRows()).length;
    await enrol('gatekeeper@demo.local', false);
    expect(await reset(ids.gatekeeper!, admin)).toMatchObject({ removed: 1 });
    // A member without user editing may not reset another's codes: refused, nothing removed or mailed.
    const clinician = await server.api.login('clinician@demo.local');
    expect(await reset(ids.viewer!, clinician)).toMatchObject({ status: 'ERROR' });
    // Given time for a mail that should not come.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await outboxRows()).length).toBe(before);
    expect(mailsTo('gatekeeper@demo.local')).toEqual([]);
  });
});
