import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setMailEvents } from '../support/mail-events.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

const ANSWERS = {
  'customfield-priority': 'Priority',
  'customfield-reason_for_visit': 'Outside CT',
  'customfield-nominated_by': 'Dr Claire',
};

describe.each(DIALECTS)('"nominated to gatekeeper groups" mails on %s', (dialect) => {
  let server: TestServer;
  let clinician: string;
  let ns: Record<string, string>;
  let intake: string;
  let studies: { uuid: string; patientid: string; patient_name: string }[];

  beforeAll(async () => {
    server = await startTestServer(dialect);
    clinician = await server.api.login('clinician@demo.local');
    const db = server.ctx.db.kysely;
    ns = Object.fromEntries(
      (await db.selectFrom('namespaces').select(['id', 'name']).execute()).map((n) => [n.name, n.id]),
    );
    intake = (
      await db.selectFrom('groups').select('uuid').where('name', '=', 'PACS Intake').executeTakeFirstOrThrow()
    ).uuid;
    studies = await db
      .selectFrom('studies')
      .select(['uuid', 'patientid', 'patient_name'])
      .where('namespace_id', '=', ns['Cardiology']!)
      .where('deleted', 'is', null)
      .orderBy('uuid')
      .execute();
    expect(studies.length).toBeGreaterThanOrEqual(3);
  });
  afterAll(() => server?.stop());

  const set = async (email: string, namespace: string, flags: Record<string, number>) => {
    return setMailEvents(server.api, await server.api.login(email), ns[namespace]!, flags);
  };
  const nominate = (uuid: string, extra: Record<string, string> = {}) =>
    server.api.call('study/nominate', { uuid, gatekeeper_id: intake, ...ANSWERS, ...extra }, clinician);
  const mails = () =>
    server.ctx.db.kysely
      .selectFrom('outbox')
      .selectAll()
      .where('kind', '=', 'nomination')
      .orderBy('id')
      .execute();

  it('is a preference of its own, off until turned on, listed with the others', async () => {
    const sid = await server.api.login('gatekeeper@demo.local');
    const list = (await server.api.call('user/event/list', {}, sid)).body.events as Record<string, unknown>[];
    expect(list.find((p) => p['name'] === 'PACS Intake')).toMatchObject({
      event_share: 0,
      event_harvest: 0,
      event_nominate: 0,
    });
    expect(await set('gatekeeper@demo.local', 'PACS Intake', { event_nominate: 1 })).toMatchObject({
      event_nominate: 1,
      event_share: 0,
    });
    const bad = await server.api.get('user/event/set', {
      sid,
      namespace_id: ns['PACS Intake']!,
      event_nominate: 2,
    });
    expect(bad.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'event_nominate' });
  });

  it('mails the gatekeepers who turned it on, queued with the nomination, without patient details', async () => {
    expect((await nominate(studies[0]!.uuid)).body.status).toBe('OK');
    const sent = await mails();
    expect(sent.map((m) => m.to_address)).toEqual(['gatekeeper@demo.local']);
    const mail = sent[0]!;
    expect(mail.subject).toBe('An exam was nominated to PACS Intake');
    expect(mail.body).toContain('nominated an exam from Cardiology to PACS Intake (priority: Priority)');
    expect(mail.body).toContain(`/group/${intake}`);
    expect(mail.body).toContain('"Nominated to gatekeeper groups" is on for PACS Intake');
    expect(mail.body).not.toContain(studies[0]!.patientid);
    expect(mail.body).not.toContain(studies[0]!.patient_name);
  });

  it('mails nobody for a refused nomination, nor members who turned it off or only on elsewhere', async () => {
    // Refused: a required answer missing.
    const refused = await nominate(studies[1]!.uuid, { 'customfield-reason_for_visit': '' });
    expect(refused.body.status).toBe('ERROR');
    expect(await mails()).toHaveLength(1);
    await set('gatekeeper@demo.local', 'PACS Intake', { event_nominate: 0 });
    await set('gatekeeper@demo.local', 'Demo Hospital', { event_nominate: 1 });
    expect((await nominate(studies[2]!.uuid)).body.status).toBe('OK');
    expect(await mails()).toHaveLength(1);
  });
});
