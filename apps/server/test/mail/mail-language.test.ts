import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMail } from '../support/mail-decode.js';
import { SmtpSink } from '../support/smtp-sink.js';
import { accountIdOf } from '../support/demo-world.js';
import { setMailEvents } from '../support/mail-events.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { eventually } from '../support/until.js';

/**
 * E-mails reach a real SMTP server in the reader's language: the user's own choice, else the
 * account's, else English; an outside address reads the language of the user who wrote to it.
 */
describe.each(DIALECTS)('e-mails in the reader language on %s', (dialect) => {
  const sink = new SmtpSink();
  let server: TestServer;
  let accountId: string;

  beforeAll(async () => {
    await sink.start();
    server = await startTestServer(dialect, { SEED_STUDIES: '6', SMTP_URL: sink.url, MAIL_RETRY_MS: '20' });
    accountId = await accountIdOf(server.ctx.db, 'Demo Hospital');
  });
  afterAll(async () => {
    await server?.stop();
    await sink.stop();
  });

  /** The newest mail the sink received for the address, once it arrived after `count` others. */
  const nextMail = (to: string, count: number) =>
    eventually(() => {
      const received = sink.to(to);
      return received.length > count ? readMail(received[received.length - 1]!.raw) : undefined;
    }, `a mail to ${to}`);

  it('a French user gets the share mail in French', async () => {
    const clinician = await server.api.login('clinician@demo.local');
    expect((await server.api.call('user/set', { language: 'fr' }, clinician)).body.language).toBe('fr');
    const cardiology = await server.api.namespaceOf(clinician, 'Cardiology');
    await setMailEvents(server.api, clinician, cardiology, { event_share: 1 });
    const admin = await server.api.login('admin@demo.local');
    const groups = await server.api.groups(admin);
    const study = await server.ctx.db.kysely
      .selectFrom('studies')
      .select('uuid')
      .where('namespace_id', '!=', cardiology)
      .where('deleted', 'is', null)
      .executeTakeFirstOrThrow();
    const before = sink.to('clinician@demo.local').length;
    const shared = await server.api.call(
      'study/share',
      { uuid: study.uuid, group_id: groups.find((g) => g.name === 'Cardiology')!.uuid, message: 'Valve ?' },
      admin,
    );
    expect(shared.body.status, JSON.stringify(shared.body)).toBe('OK');

    const mail = await nextMail('clinician@demo.local', before);
    expect(mail.subject).toBe('Un examen a été partagé avec Cardiology');
    expect(mail.text).toContain('Bonjour ');
    expect(mail.text).toContain('Ada Admin a partagé un examen avec le groupe Cardiology.');
    expect(mail.text).toContain('Message de Ada Admin :\nValve ?');
    expect(mail.text).toContain('« Partagé avec moi »');
    expect(mail.text).not.toContain('shared an exam');
  });

  it('an outside address reads the language of the user who asked them for exams', async () => {
    const clinician = await server.api.login('clinician@demo.local');
    const emergency = await server.api.namespaceOf(clinician, 'Emergency');
    const answer = await server.api.call(
      'link/add',
      {
        namespace_id: emergency,
        action: 'STUDY_UPLOAD',
        email: 'referrer@outside.example',
        max_hits: 1,
        minutes_alive: 60,
        message: 'Merci',
      },
      clinician,
    );
    expect(answer.body.status, JSON.stringify(answer.body)).toBe('OK');
    const mail = await nextMail('referrer@outside.example', 0);
    expect(mail.subject).toMatch(/vous demande d'envoyer un examen dans Emergency$/);
    expect(mail.text).toContain('Message : Merci');
    expect(mail.text).toContain('Le lien est valable 60 minutes.');
  });

  it("a user without a choice reads the account's language, else English", async () => {
    const lost = () => server.api.call('user/password/lost', { email: 'viewer@demo.local' });
    let before = sink.to('viewer@demo.local').length;
    await lost();
    expect((await nextMail('viewer@demo.local', before)).subject).toBe('Reset your Imaging Inbox password');

    await server.ctx.repos.settings.set(`account:${accountId}`, 'default_language', 'es');
    before = sink.to('viewer@demo.local').length;
    await lost();
    const spanish = await nextMail('viewer@demo.local', before);
    expect(spanish.subject).toBe('Restablezca su contraseña de Imaging Inbox');
    expect(spanish.text).toContain('Alguien ha solicitado restablecer la contraseña de viewer@demo.local.');

    // The user's own choice wins over the account's.
    const viewer = await server.api.login('viewer@demo.local');
    await server.api.call('user/set', { language: 'en' }, viewer);
    before = sink.to('viewer@demo.local').length;
    await lost();
    expect((await nextMail('viewer@demo.local', before)).subject).toBe('Reset your Imaging Inbox password');
    await server.ctx.repos.settings.set(`account:${accountId}`, 'default_language', '');
  });
});
