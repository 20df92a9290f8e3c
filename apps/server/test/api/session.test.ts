import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/security/tokens.js';
import type { TestServer } from '../support/test-server.js';
import { DEMO_PASSWORD, DIALECTS, startTestServer } from '../support/test-server.js';

describe.each(DIALECTS)('sessions on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    // The test client is the trusted proxy, so X-Forwarded-For can play other client addresses.
    server = await startTestServer(dialect, { SESSION_IDLE_MINUTES: '1', TRUST_PROXY: '127.0.0.1' });
  });
  afterAll(() => server?.stop());

  /** session/login as sent from `address`. */
  async function loginFrom(address: string, login: string, password: string) {
    const response = await fetch(`${server.url}/api/v3/session/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
      body: new URLSearchParams({ login, password }),
    });
    return { status: response.status, body: (await response.json()) as { error_type?: string } };
  }

  /** Moves the recorded failures of `login` back in time, as if they were `ms` older. */
  async function ageFailures(login: string, ms: number): Promise<void> {
    const rows = await server.ctx.db.kysely
      .selectFrom('auth_failures')
      .select(['key', 'at'])
      .where('key', 'like', `login:${login}|%`)
      .execute();
    for (const row of rows) {
      await server.ctx.db.kysely
        .updateTable('auth_failures')
        .set({ at: Number(row.at) - ms })
        .where('key', '=', row.key)
        .where('at', '=', row.at)
        .execute();
    }
  }

  it('logs in with the demo password and answers the spec fields with a long random sid', async () => {
    const { status, body } = await server.api.call('session/login', {
      login: 'clinician@demo.local',
      password: DEMO_PASSWORD,
    });
    expect(status).toBe(200);
    expect(body.status).toBe('OK');
    expect(body.sid).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits, base64url
    for (const field of [
      'uuid',
      'name',
      'pin_required',
      'privacy',
      'indicator',
      'terms',
      'training_todo',
      'is_proxy',
    ]) {
      expect(body).toHaveProperty(field);
    }
    const again = await server.api.login('clinician@demo.local');
    expect(again).not.toBe(body.sid);
  });

  it('stores only the hash of the sid', async () => {
    const sid = await server.api.login('viewer@demo.local');
    const rows = await server.ctx.db.kysely.selectFrom('sessions').select('sid_hash').execute();
    expect(rows.map((r) => r.sid_hash)).toContain(hashToken(sid));
    expect(rows.map((r) => r.sid_hash)).not.toContain(sid);
  });

  it('answers BAD_PASSWORD for a wrong password and for an unknown login alike', async () => {
    const wrong = await server.api.call('session/login', {
      login: 'viewer@demo.local',
      password: 'nope-nope-12',
    });
    const unknown = await server.api.call('session/login', {
      login: 'ghost@demo.local',
      password: 'nope-nope-12',
    });
    expect(wrong.status).toBe(412);
    expect(wrong.body.error_type).toBe('BAD_PASSWORD');
    expect(unknown.body).toEqual(wrong.body);
  });

  it('refuses a login without fields with MISSING_FIELDS', async () => {
    const { status, body } = await server.api.call('session/login', { login: 'viewer@demo.local' });
    expect(status).toBe(412);
    expect(body.error_type).toBe('MISSING_FIELDS');
    expect(body.error_data).toEqual(['password']);
  });

  it('rate-limits repeated failures on one account, even with the right password afterwards', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await server.api.call('session/login', {
        login: 'partner@demo.local',
        password: `wrong-${i}-xx`,
      });
      expect(r.body.error_type).toBe('BAD_PASSWORD');
    }
    const limited = await server.api.call('session/login', {
      login: 'partner@demo.local',
      password: DEMO_PASSWORD,
    });
    expect(limited.status).toBe(429);
    expect(limited.body.error_type).toBe('RATE_LIMITED');
    const audit = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['outcome'])
      .where('action', '=', 'LOGIN')
      .where('outcome', '=', 'FAILURE')
      .execute();
    expect(audit.length).toBeGreaterThanOrEqual(6);
  });

  it('returns the user, permissions per namespace and ttl for a live session', async () => {
    const sid = await server.api.login('clinician@demo.local');
    const user = await server.api.get('session/user', { sid });
    expect(user.body).toMatchObject({ email: 'clinician@demo.local', sysadmin: 0, admin: 0 });
    const groups = await server.api.groups(sid);
    const emergency = groups.find((g) => g.name === 'Emergency')!;
    const perms = await server.api.get('session/permissions', { sid, namespace_id: emergency.namespace_id });
    expect(perms.body.study_upload).toBe(1);
    expect(perms.body.study_push).toBe(0);
    const foreign = await server.api.get('session/permissions', { sid, namespace_id: 'not-a-namespace' });
    expect(foreign.body.error_type).toBe('NOT_MEMBER');
    const ttl = await server.api.get('session/ttl', { sid });
    expect(ttl.body.ttl).toBeGreaterThan(50);
    expect(ttl.body.ttl).toBeLessThanOrEqual(60);
  });

  it('invalidates the session on logout: later calls get 401 and ttl answers EXPIRED', async () => {
    const sid = await server.api.login('viewer@demo.local');
    expect((await server.api.get('session/logout', { sid })).status).toBe(200);
    const after = await server.api.get('session/user', { sid });
    expect(after.status).toBe(401);
    const ttl = await server.api.get('session/ttl', { sid });
    expect(ttl.status).toBe(412);
    expect(ttl.body.error_type).toBe('EXPIRED');
  });

  it("counts wrong passwords per login and address: a stranger's guesses do not lock the user out", async () => {
    for (let i = 0; i < 5; i++) {
      expect((await loginFrom('10.9.0.1', 'clinician@demo.local', `wrong-${i}-xx`)).body.error_type).toBe(
        'BAD_PASSWORD',
      );
    }
    const stranger = await loginFrom('10.9.0.1', 'clinician@demo.local', DEMO_PASSWORD);
    expect(stranger).toMatchObject({ status: 429, body: { error_type: 'RATE_LIMITED' } });
    const owner = await loginFrom('10.9.0.2', 'clinician@demo.local', DEMO_PASSWORD);
    expect(owner.status).toBe(200);
  });

  it('backs off 30 s after five failures, doubling with each further one', async () => {
    const login = 'gatekeeper@demo.local';
    for (let i = 0; i < 5; i++) await loginFrom('10.9.0.3', login, `wrong-${i}-xx`);
    expect((await loginFrom('10.9.0.3', login, 'wrong-5-xx')).status).toBe(429);
    await ageFailures(login, 31_000);
    expect((await loginFrom('10.9.0.3', login, 'wrong-6-xx')).body.error_type).toBe('BAD_PASSWORD');
    // Six failures: the next try waits a minute after the latest.
    await ageFailures(login, 31_000);
    expect((await loginFrom('10.9.0.3', login, DEMO_PASSWORD)).status).toBe(429);
    await ageFailures(login, 30_000);
    expect((await loginFrom('10.9.0.3', login, DEMO_PASSWORD)).status).toBe(200);
  });

  /** Sends every (login, password) of `tries` from `address` at once; answers the count of each status. */
  async function burstFrom(address: string, tries: Array<[string, string]>) {
    const answers = await Promise.all(tries.map(([login, password]) => loginFrom(address, login, password)));
    const statuses = answers.map((a) => a.status);
    return {
      checked: statuses.filter((s) => s === 412 || s === 200).length,
      limited: statuses.filter((s) => s === 429).length,
    };
  }

  it('counts guesses sent at once before hashing them: an address with 28 of its 30 failures gets 2 of 40 checked', async () => {
    const address = '10.9.1.1';
    const at = Date.now();
    await server.ctx.db.kysely
      .insertInto('auth_failures')
      .values(Array.from({ length: 28 }, () => ({ key: `ip:${address}`, at })))
      .execute();
    // Forty different logins, so only the address limit applies.
    const tries = Array.from({ length: 40 }, (_, i): [string, string] => [
      `guess-${i}@demo.local`,
      'wrong-wrong-1',
    ]);
    expect(await burstFrom(address, tries)).toEqual({ checked: 2, limited: 38 });
    expect((await loginFrom(address, 'viewer@demo.local', DEMO_PASSWORD)).status).toBe(429);
  });

  it('checks five of 24 guesses at one login sent at once, then refuses the right password', async () => {
    const address = '10.9.1.2';
    const tries = Array.from({ length: 24 }, (_, i): [string, string] => [
      'admin@demo.local',
      `wrong-${i}-xx`,
    ]);
    expect(await burstFrom(address, tries)).toEqual({ checked: 5, limited: 19 });
    expect((await loginFrom(address, 'admin@demo.local', DEMO_PASSWORD)).status).toBe(429);
  });

  it('lets right passwords sent together from one address all in: they wait for each other, not refuse', async () => {
    const address = '10.9.1.4';
    const tries = Array.from({ length: 12 }, (): [string, string] => ['viewer@demo.local', DEMO_PASSWORD]);
    const answers = await Promise.all(tries.map(([login, password]) => loginFrom(address, login, password)));
    expect(answers.map((a) => a.status)).toEqual(tries.map(() => 200));
  });

  it('takes back the count of a right password: successful sign-ins leave no failure behind', async () => {
    const address = '10.9.1.3';
    for (let i = 0; i < 3; i++)
      expect((await loginFrom(address, 'viewer@demo.local', DEMO_PASSWORD)).status).toBe(200);
    const rows = await server.ctx.db.kysely
      .selectFrom('auth_failures')
      .select('key')
      .where('key', 'in', [`ip:${address}`, `login:viewer@demo.local|${address}`])
      .execute();
    expect(rows).toEqual([]);
  });

  it('believes from a trusted proxy only an IP address: a forged X-Forwarded-For is audited and counted as the proxy', async () => {
    const forged = '=HYPERLINK("http://evil.example","click")';
    for (const header of [forged, `10.9.2.1, ${forged}`, '10.9.2.1:8080'])
      expect((await loginFrom(header, 'forger@demo.local', 'wrong-wrong-1')).status).toBe(412);
    const rows = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['ip', 'detail'])
      .where('action', '=', 'LOGIN')
      .execute();
    const forger = rows.filter((r) => String(r.detail).includes('forger@demo.local'));
    expect(forger.map((r) => r.ip)).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.1']);
    const keys = await server.ctx.db.kysely
      .selectFrom('auth_failures')
      .select('key')
      .where('key', 'like', 'login:forger@demo.local|%')
      .execute();
    expect(new Set(keys.map((k) => k.key))).toEqual(new Set(['login:forger@demo.local|127.0.0.1']));
  });

  it('slides the idle expiry of a session in use, even at SESSION_IDLE_MINUTES=1', async () => {
    const sid = await server.api.login('viewer@demo.local');
    // Last used 50 s ago, so 10 s left: a request now must give it a full minute again.
    const lastSeen = Date.now() - 50_000;
    await server.ctx.db.kysely
      .updateTable('sessions')
      .set({ last_seen: lastSeen, expires: lastSeen + 60_000 })
      .where('sid_hash', '=', hashToken(sid))
      .execute();
    const before = Date.now();
    expect((await server.api.get('session/user', { sid })).status).toBe(200);
    const row = await server.ctx.db.kysely
      .selectFrom('sessions')
      .select('expires')
      .where('sid_hash', '=', hashToken(sid))
      .executeTakeFirstOrThrow();
    expect(Number(row.expires)).toBeGreaterThanOrEqual(before + 59_000);
    expect((await server.api.get('session/ttl', { sid })).body.ttl).toBeGreaterThanOrEqual(58);
  });

  it('expires an idle session', async () => {
    const sid = await server.api.login('viewer@demo.local');
    await server.ctx.db.kysely
      .updateTable('sessions')
      .set({ expires: Date.now() - 1 })
      .where('sid_hash', '=', hashToken(sid))
      .execute();
    expect((await server.api.get('session/user', { sid })).status).toBe(401);
    expect((await server.api.get('session/ttl', { sid })).body.error_type).toBe('EXPIRED');
  });

  it("refuses a live session whose user is no longer active, and a made-up sid, though each one's access is read beside it", async () => {
    const sid = await server.api.login('viewer@demo.local');
    const users = () => server.ctx.db.kysely.updateTable('users').where('email', '=', 'viewer@demo.local');
    await users().set({ status: 'DISABLED' }).execute();
    try {
      expect((await server.api.get('session/user', { sid })).status).toBe(401);
      expect((await server.api.call('study/list', {}, sid)).status).toBe(401);
    } finally {
      await users().set({ status: 'ACTIVE' }).execute();
    }
    expect((await server.api.get('session/user', { sid })).status).toBe(200);
    expect((await server.api.call('study/list', {}, `${sid}x`)).status).toBe(401);
  });

  it('answers 401 without a sid and accepts a Bearer header', async () => {
    expect((await server.api.get('session/user')).status).toBe(401);
    const sid = await server.api.login('viewer@demo.local');
    const response = await fetch(`${server.url}/api/v3/session/user`, {
      headers: { authorization: `Bearer ${sid}` },
    });
    expect(response.status).toBe(200);
  });
});
