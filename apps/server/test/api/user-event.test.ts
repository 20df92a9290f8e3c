import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

interface Pref {
  namespace_id: string;
  name: string;
  type: string;
  event_share: number;
  event_harvest: number;
  can_modify: number;
}

describe.each(DIALECTS)('notification preferences (user/event) on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let clinician: string;
  let viewer: string;
  let ns: Record<string, string>;
  let users: Record<string, string>;

  beforeAll(async () => {
    server = await startTestServer(dialect, { SEED_STUDIES: '0' });
    [admin, clinician, viewer] = await Promise.all([
      server.api.login('admin@demo.local'),
      server.api.login('clinician@demo.local'),
      server.api.login('viewer@demo.local'),
    ]);
    const db = server.ctx.db.kysely;
    ns = Object.fromEntries(
      (await db.selectFrom('namespaces').select(['id', 'name']).execute()).map((n) => [n.name, n.id]),
    );
    users = Object.fromEntries(
      (await db.selectFrom('users').select(['uuid', 'email']).execute()).map((u) => [u.email, u.uuid]),
    );
  });
  afterAll(() => server?.stop());

  const rows = () => server.ctx.db.kysely.selectFrom('user_events').selectAll().execute();
  const audits = () =>
    server.ctx.db.kysely
      .selectFrom('audit_events')
      .selectAll()
      .where('object_type', '=', 'user_event')
      .execute();

  it('lists the account and every group of the user, all off until chosen', async () => {
    const { body } = await server.api.get('user/event/list', { sid: clinician });
    const list = body.events as Pref[];
    expect(list.map((p) => [p.name, p.type])).toEqual([
      ['Demo Hospital', 'ACCOUNT'],
      ['Cardiology', 'CLOUD'],
      ['Emergency', 'CLOUD'],
    ]);
    expect(list.every((p) => p.event_share === 0 && p.event_harvest === 0 && p.can_modify === 1)).toBe(true);
    const viewerList = (await server.api.get('user/event/list', { sid: viewer })).body.events as Pref[];
    expect(viewerList.map((p) => [p.name, p.can_modify])).toEqual([
      ['Demo Hospital', 0],
      ['Emergency', 0],
    ]);
  });

  it('sets one flag at a time, keeps the other, and audits the change', async () => {
    const set = await server.api.get('user/event/set', {
      sid: clinician,
      namespace_id: ns['Emergency']!,
      event_harvest: 1,
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ status: 'OK', event_harvest: 1, event_share: 0 });
    await server.api.call('user/event/set', { namespace_id: ns['Emergency']!, event_share: '1' }, clinician);
    const got = await server.api.get('user/event', { sid: clinician, namespace_id: ns['Emergency']! });
    expect(got.body).toMatchObject({
      status: 'OK',
      namespace_id: ns['Emergency'],
      event_share: 1,
      event_harvest: 1,
    });
    await server.api.get('user/event/set', {
      sid: clinician,
      namespace_id: ns['Emergency']!,
      event_share: 0,
    });
    const again = await server.api.get('user/event', { sid: clinician, namespace_id: ns['Emergency']! });
    expect(again.body).toMatchObject({ event_share: 0, event_harvest: 1 });

    const events = await audits();
    expect(events).toHaveLength(3);
    expect(events.every((e) => e.user_id === users['clinician@demo.local'])).toBe(true);
    expect(JSON.parse(events[2]!.detail!)).toEqual({
      namespace_id: ns['Emergency'],
      before: { event_share: 1, event_harvest: 1, event_nominate: 0 },
      after: { event_share: 0, event_harvest: 1, event_nominate: 0 },
    });
  });

  it('refuses with NOT_FOUND, NOT_MEMBER, NOT_PERMITTED and bad values, changing nothing', async () => {
    const before = await rows();
    const auditsBefore = (await audits()).length;
    const expectError = async (params: Record<string, string | number>, sid: string, type: string) => {
      const answer = await server.api.get('user/event/set', { sid, ...params });
      expect(answer.status, JSON.stringify(answer.body)).toBe(412);
      expect(answer.body.error_type).toBe(type);
    };
    // No such namespace.
    await expectError({ namespace_id: 'no-such-namespace', event_share: 1 }, clinician, 'NOT_FOUND');
    // A group of the account the clinician does not belong to, and one of another account: the
    // same answer as a missing namespace, so a member learns nothing of groups they are not in.
    await expectError({ namespace_id: ns['PACS Intake']!, event_share: 1 }, clinician, 'NOT_FOUND');
    await expectError({ namespace_id: ns['Referrals']!, event_harvest: 1 }, clinician, 'NOT_FOUND');
    // A member without user_modify_notifications.
    await expectError({ namespace_id: ns['Emergency']!, event_share: 1 }, viewer, 'NOT_PERMITTED');
    await expectError({ namespace_id: ns['Demo Hospital']!, event_share: 1 }, viewer, 'NOT_PERMITTED');
    // Somebody else's flags without the right to manage users.
    await expectError(
      { namespace_id: ns['Emergency']!, event_share: 1, user_id: users['viewer@demo.local']! },
      clinician,
      'NOT_PERMITTED',
    );
    // Bad input.
    await expectError({ namespace_id: ns['Emergency']!, event_share: 2 }, clinician, 'INVALID_FIELD');
    await expectError({ namespace_id: ns['Emergency']!, event_share: 'yes' }, clinician, 'INVALID_FIELD');
    await expectError({ namespace_id: ns['Emergency']! }, clinician, 'MISSING_FIELDS');
    await expectError({ event_share: 1 }, clinician, 'MISSING_FIELDS');
    // Reading is refused the same way.
    const read = async (params: Record<string, string>, sid: string) =>
      (await server.api.get('user/event', { sid, ...params })).body.error_type;
    expect(await read({ namespace_id: 'no-such-namespace' }, clinician)).toBe('NOT_FOUND');
    expect(await read({ namespace_id: ns['PACS Intake']! }, clinician)).toBe('NOT_FOUND');
    expect(
      await read({ namespace_id: ns['Emergency']!, user_id: users['viewer@demo.local']! }, clinician),
    ).toBe('NOT_PERMITTED');
    // Without a session.
    const anonymous = await server.api.get('user/event/set', {
      namespace_id: ns['Emergency']!,
      event_share: 1,
    });
    expect(anonymous.status).toBe(401);

    expect(await rows()).toEqual(before);
    expect((await audits()).length).toBe(auditsBefore);
  });

  it('lets an account admin set a member’s flags, but not where that user is no member', async () => {
    const viewerId = users['viewer@demo.local']!;
    const set = await server.api.get('user/event/set', {
      sid: admin,
      namespace_id: ns['Emergency']!,
      event_harvest: 1,
      user_id: viewerId,
    });
    expect(set.body).toMatchObject({ status: 'OK', event_harvest: 1 });
    const seen = await server.api.get('user/event', { sid: viewer, namespace_id: ns['Emergency']! });
    expect(seen.body).toMatchObject({ event_harvest: 1, event_share: 0 });
    const notMember = await server.api.get('user/event/set', {
      sid: admin,
      namespace_id: ns['Cardiology']!,
      event_harvest: 1,
      user_id: viewerId,
    });
    expect(notMember.body.error_type).toBe('NOT_MEMBER');
    const unknown = await server.api.get('user/event/set', {
      sid: admin,
      namespace_id: ns['Emergency']!,
      event_harvest: 1,
      user_id: 'no-such-user',
    });
    expect(unknown.body.error_type).toBe('NOT_FOUND');
    // The partner account's admin has no say over the demo account's users.
    const partner = await server.api.login('partner@demo.local');
    const foreign = await server.api.get('user/event/set', {
      sid: partner,
      namespace_id: ns['Emergency']!,
      event_harvest: 0,
      user_id: viewerId,
    });
    // Nor learns that its group exists: the answer of a missing namespace.
    expect(foreign.body.error_type).toBe('NOT_FOUND');
  });
});
