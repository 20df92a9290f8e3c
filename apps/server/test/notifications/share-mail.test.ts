import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setMailEvents } from '../support/mail-events.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

describe.each(DIALECTS)('"shared with me" mails on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let ns: Record<string, string>;
  let groups: Record<string, string>;
  let users: Record<string, string>;
  let studies: { uuid: string; patient_name: string; patientid: string }[];

  beforeAll(async () => {
    server = await startTestServer(dialect, { SEED_STUDIES: '8' });
    admin = await server.api.login('admin@demo.local');
    const db = server.ctx.db.kysely;
    ns = Object.fromEntries(
      (await db.selectFrom('namespaces').select(['id', 'name']).execute()).map((n) => [n.name, n.id]),
    );
    groups = Object.fromEntries(
      (await db.selectFrom('groups').select(['uuid', 'name']).execute()).map((g) => [g.name, g.uuid]),
    );
    users = Object.fromEntries(
      (await db.selectFrom('users').select(['uuid', 'email']).execute()).map((u) => [u.email, u.uuid]),
    );
    studies = await db
      .selectFrom('studies')
      .select(['uuid', 'patient_name', 'patientid', 'study_uid'])
      .where('namespace_id', '=', ns['Emergency']!)
      .orderBy('uuid')
      .execute();
    expect(studies.length).toBeGreaterThanOrEqual(3);
  });
  afterAll(() => server?.stop());

  const set = async (email: string, namespace: string, flags: Record<string, number>) =>
    setMailEvents(server.api, await server.api.login(email), ns[namespace]!, flags);
  const share = async (uuid: string, target: Record<string, string>, message?: string) => {
    const answer = await server.api.call(
      'study/share',
      { uuid, ...target, ...(message ? { message } : {}) },
      admin,
    );
    expect(answer.body.status, JSON.stringify(answer.body)).toBe('OK');
  };
  const mails = () =>
    server.ctx.db.kysely
      .selectFrom('outbox')
      .selectAll()
      .where('subject', 'like', 'An exam was shared%')
      .orderBy('id')
      .execute();

  it('mails members of the group who opted in, with the message and a link', async () => {
    await set('clinician@demo.local', 'Cardiology', { event_share: 1 });
    await share(studies[0]!.uuid, { group_id: groups['Cardiology']! }, 'Please look at the aortic valve');
    const sent = await mails();
    expect(sent).toHaveLength(1);
    const mail = sent[0]!;
    expect(mail.to_address).toBe('clinician@demo.local');
    expect(mail.subject).toBe('An exam was shared with Cardiology');
    expect(mail.body).toContain('Ada Admin shared an exam with the group Cardiology.');
    expect(mail.body).toContain('Please look at the aortic valve');
    expect(mail.body).toContain(`/group/${groups['Cardiology']}`);
    expect(mail.body).not.toContain(studies[0]!.patientid);
    // Sharing again only refreshes the message: no second mail.
    await share(studies[0]!.uuid, { group_id: groups['Cardiology']! }, 'updated note');
    expect(await mails()).toHaveLength(1);
  });

  it('mails a user shared with directly when they opted in on the account', async () => {
    await set('clinician@demo.local', 'Demo Hospital', { event_share: 1 });
    await share(studies[1]!.uuid, { user_id: users['clinician@demo.local']! });
    await share(studies[1]!.uuid, { user_id: users['viewer@demo.local']! });
    const sent = await mails();
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatchObject({
      to_address: 'clinician@demo.local',
      subject: 'An exam was shared with you',
    });
    expect(sent[1]!.body).not.toContain('Message from');
    // The mail points at the copy in the recipient's personal 'Shared with me' group.
    const db = server.ctx.db.kysely;
    const personal = await db
      .selectFrom('namespaces')
      .select('id')
      .where('owner_user_id', '=', users['clinician@demo.local']!)
      .executeTakeFirstOrThrow();
    const copy = await db
      .selectFrom('studies')
      .select('uuid')
      .where('namespace_id', '=', personal.id)
      .executeTakeFirstOrThrow();
    expect(sent[1]!.body).toContain(`/group/${personal.id}`);
    expect(sent[1]!.body).toContain(copy.uuid);
    // That personal group is not a place to choose mails: the account is.
    const clinician = await server.api.login('clinician@demo.local');
    const list = (await server.api.get('user/event/list', { sid: clinician })).body.events as {
      namespace_id: string;
    }[];
    expect(list.map((p) => p.namespace_id)).not.toContain(personal.id);
  });

  it('mails nobody who opted out', async () => {
    await set('clinician@demo.local', 'Cardiology', { event_share: 0 });
    await set('clinician@demo.local', 'Demo Hospital', { event_share: 0 });
    await share(studies[2]!.uuid, { group_id: groups['Cardiology']! }, 'no mail expected');
    await share(studies[2]!.uuid, { user_id: users['clinician@demo.local']! });
    expect(await mails()).toHaveLength(2);
  });
});
