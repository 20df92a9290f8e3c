import type { Study } from '@imaging-inbox/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

const MINUTE = 60_000;

describe.each(DIALECTS)('study locks lapse, show their holder and can be broken on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let clinician: string;
  let viewer: string;
  let partner: string;
  let study: { uuid: string; account_id: string };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.api.login('admin@demo.local');
    clinician = await server.api.login('clinician@demo.local');
    viewer = await server.api.login('viewer@demo.local');
    partner = await server.api.login('partner@demo.local');
    study = await server.ctx.db.kysely
      .selectFrom('studies')
      .innerJoin('groups', 'groups.namespace_id', 'studies.namespace_id')
      .select(['studies.uuid', 'studies.account_id'])
      .where('groups.name', '=', 'Emergency')
      .executeTakeFirstOrThrow();
  });
  afterAll(() => server?.stop());
  beforeEach(async () => {
    await server.ctx.db.kysely
      .updateTable('studies')
      .set({ is_locked: 0, locked_by: null, locked_at: null })
      .where('uuid', '=', study.uuid)
      .execute();
  });

  const call = (route: string, sid: string) => server.api.call(route, { uuid: study.uuid }, sid);
  const get = async (sid: string) => (await call('study/get', sid)).body as Study;
  /** Moves the lock's start back in time, as if it had been taken `minutes` ago. */
  const ageLock = (minutes: number) =>
    server.ctx.db.kysely
      .updateTable('studies')
      .set({ locked_at: Date.now() - minutes * MINUTE })
      .where('uuid', '=', study.uuid)
      .execute();
  const lockEvents = async (action: string) =>
    server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['user_id', 'detail'])
      .where('object_id', '=', study.uuid)
      .where('action', '=', action)
      .execute();

  it('answers who holds the lock and since when', async () => {
    const before = Date.now();
    expect((await call('study/lock', clinician)).body.status).toBe('OK');
    const seen = await get(admin);
    expect(seen.is_locked).toBe(1);
    expect(seen.lock).toMatchObject({ user_name: 'Claire Clinician', user_email: 'clinician@demo.local' });
    const since = Date.parse(seen.lock!.since);
    expect(since).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(seen.lock!.expires) - since).toBe(15 * MINUTE);
    expect(seen.permissions.study_edit).toBe(0);
    // The list answers the same.
    const listed = (await server.api.call('study/list', { 'page.rows': 100 }, admin)).body.studies as Study[];
    expect(listed.find((s) => s.uuid === study.uuid)?.lock?.user_email).toBe('clinician@demo.local');
    expect(listed.filter((s) => s.uuid !== study.uuid).every((s) => s.lock === null)).toBe(true);
  });

  it('lapses 15 minutes after it was taken: the study is editable again and free to lock', async () => {
    await call('study/lock', clinician);
    await ageLock(14);
    expect((await call('study/lock', admin)).body.error_type).toBe('LOCKED');
    await ageLock(16);
    const seen = await get(admin);
    expect(seen).toMatchObject({ is_locked: 0, lock: null });
    expect(seen.permissions.study_edit).toBe(1);
    expect(
      (await server.api.call('study/set', { uuid: study.uuid, study_description: 'After' }, admin)).body
        .status,
    ).toBe('OK');
    expect((await call('study/lock', admin)).body.status).toBe('OK');
    expect((await get(clinician)).lock?.user_email).toBe('admin@demo.local');
  });

  it('is renewed by its holder locking again', async () => {
    await call('study/lock', clinician);
    await ageLock(14);
    expect((await call('study/lock', clinician)).body.status).toBe('OK');
    await new Promise((r) => setTimeout(r, 5));
    const seen = await get(admin);
    expect(Date.now() - Date.parse(seen.lock!.since)).toBeLessThan(MINUTE);
    expect((await call('study/lock', admin)).body.error_type).toBe('LOCKED');
  });

  it('is broken by an account admin (audited), by nobody else', async () => {
    await call('study/lock', clinician);
    const since = (await get(admin)).lock!.since;
    expect((await call('study/lock/break', viewer)).body.error_type).toBe('NOT_PERMITTED');
    expect((await call('study/lock/break', partner)).body.error_type).toBe('NOT_FOUND');
    expect((await get(admin)).is_locked).toBe(1);
    expect(await lockEvents('LOCK_BREAK')).toEqual([]);

    expect((await call('study/lock/break', admin)).body.status).toBe('OK');
    expect(await get(clinician)).toMatchObject({ is_locked: 0, lock: null });
    const clinicianId = (
      await server.ctx.db.kysely
        .selectFrom('users')
        .select('uuid')
        .where('email', '=', 'clinician@demo.local')
        .executeTakeFirstOrThrow()
    ).uuid;
    const [event, ...more] = await lockEvents('LOCK_BREAK');
    expect(more).toEqual([]);
    expect(JSON.parse(String(event!.detail))).toEqual({ holder: clinicianId, since });
    // Breaking a free lock is not an event.
    expect((await call('study/lock/break', admin)).body.status).toBe('OK');
    expect(await lockEvents('LOCK_BREAK')).toHaveLength(1);
    // The former holder's unlock after a break is harmless.
    expect((await call('study/unlock', clinician)).body.status).toBe('OK');
  });
});
