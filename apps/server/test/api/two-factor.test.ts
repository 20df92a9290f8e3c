import { authenticator } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstAccountOf, userIdsByName } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DEMO_PASSWORD, DIALECTS, startTestServer } from '../support/test-server.js';

/** The code an authenticator app shows for `secret`, `steps` 30-second steps from now. */
const codeOf = (secret: string, steps = 0) =>
  authenticator.clone({ epoch: Date.now() + steps * 30_000 }).generate(secret);

describe.each(DIALECTS)('two-factor sign-in codes (TOTP) on %s', (dialect) => {
  let server: TestServer;
  let ids: Record<string, string>;
  beforeAll(async () => {
    // The test client is the trusted proxy, so each test signs in from an address of its own and
    // the per-address limit of one test does not reach the next.
    server = await startTestServer(dialect, { TRUST_PROXY: '127.0.0.1' });
    ids = await userIdsByName(server.ctx.db);
  });
  afterAll(() => server?.stop());

  /** session/login as sent from `address`, with a code when given. */
  async function loginFrom(address: string, login: string, otp?: string, password = DEMO_PASSWORD) {
    const response = await fetch(`${server.url}/api/v3/session/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
      body: new URLSearchParams({ login, password, ...(otp !== undefined ? { otp } : {}) }),
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  const sessionsOf = async (userId: string) =>
    (
      await server.ctx.db.kysely
        .selectFrom('sessions')
        .select('sid_hash')
        .where('user_id', '=', userId)
        .execute()
    ).length;
  const auditOf = (userId: string, action: string) =>
    server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['outcome', 'detail', 'ip'])
      .where('user_id', '=', userId)
      .where('action', '=', action)
      .orderBy('id')
      .execute();
  /** Lets the codes of the current steps be used again (each step is accepted once). */
  const forgetUsedSteps = (userId: string) =>
    server.ctx.db.kysely
      .updateTable('user_totp')
      .set({ last_step: null })
      .where('user_id', '=', userId)
      .execute();

  /** Enrols `email` through Account settings → Security; answers the secret and recovery codes. */
  async function enrol(email: string) {
    const sid = await server.api.login(email);
    const started = await server.api.call('user/totp/enrol', {}, sid);
    expect(started.body.status).toBe('OK');
    const confirmed = await server.api.call('user/totp/confirm', { otp: codeOf(started.body.secret) }, sid);
    expect(confirmed.body.status).toBe('OK');
    await forgetUsedSteps(ids[email.split('@')[0]!]!);
    return {
      sid,
      secret: started.body.secret as string,
      recovery: confirmed.body.recovery_codes as string[],
    };
  }

  it('enrols from Security: a QR code of an otpauth URI, enabled only by a right code, with ten recovery codes', async () => {
    const sid = await server.api.login('gatekeeper@demo.local');
    expect((await server.api.call('user/totp/get', {}, sid)).body).toMatchObject({
      enabled: 0,
      required: 0,
      recovery_codes_left: 0,
    });
    const started = await server.api.call('user/totp/enrol', {}, sid);
    expect(started.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.body.otpauth_uri).toBe(
      `otpauth://totp/Imaging%20Inbox:gatekeeper%40demo.local?secret=${started.body.secret}&period=30&digits=6&algorithm=SHA1&issuer=Imaging%20Inbox`,
    );
    expect(started.body.qr_svg).toMatch(/^<svg [^>]*>.*<\/svg>\s*$/s);

    const wrongCode = String((Number(codeOf(started.body.secret)) + 1) % 1_000_000).padStart(6, '0');
    const wrong = await server.api.call('user/totp/confirm', { otp: wrongCode }, sid);
    expect(wrong.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'otp' });
    expect((await server.api.call('user/totp/get', {}, sid)).body.enabled).toBe(0);
    const tooLong = await server.api.call('user/totp/confirm', { otp: '1'.repeat(33) }, sid);
    expect(tooLong.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'otp' });

    const confirmed = await server.api.call('user/totp/confirm', { otp: codeOf(started.body.secret) }, sid);
    expect(confirmed.body.recovery_codes).toHaveLength(10);
    for (const code of confirmed.body.recovery_codes) expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    expect(new Set(confirmed.body.recovery_codes).size).toBe(10);
    expect((await server.api.call('user/totp/get', {}, sid)).body).toMatchObject({
      enabled: 1,
      recovery_codes_left: 10,
    });
    // Kept hashed: no stored value is a recovery code.
    const stored = await server.ctx.db.kysely
      .selectFrom('user_recovery_codes')
      .select('code_hash')
      .where('user_id', '=', ids.gatekeeper!)
      .execute();
    expect(stored).toHaveLength(10);
    for (const { code_hash } of stored) {
      expect(confirmed.body.recovery_codes.map((c: string) => c.replace('-', ''))).not.toContain(code_hash);
      expect(code_hash).toMatch(/^[0-9a-f]{64}$/);
    }
    // A second enrolment while on is refused: the secret in use is never replaced silently.
    expect((await server.api.call('user/totp/enrol', {}, sid)).body.error_type).toBe('INVALID_FIELD');
    expect(await auditOf(ids.gatekeeper!, 'TWO_FACTOR_ENROL')).toHaveLength(1);
    expect(await auditOf(ids.gatekeeper!, 'TWO_FACTOR_CODE_FAILED')).toEqual([
      expect.objectContaining({ outcome: 'FAILURE', detail: JSON.stringify({ during: 'enrol' }) }),
    ]);
  });

  it('answers MFA_REQUIRED to a right password, then signs in with the code once; a replayed code is BAD_OTP', async () => {
    const { secret } = await enrol('clinician@demo.local');
    const before = await sessionsOf(ids.clinician!);
    const first = await loginFrom('10.1.0.1', 'clinician@demo.local');
    expect(first).toMatchObject({ status: 412, body: { error_type: 'MFA_REQUIRED' } });
    expect(await sessionsOf(ids.clinician!)).toBe(before);

    const code = codeOf(secret);
    const signedIn = await loginFrom('10.1.0.1', 'clinician@demo.local', code);
    expect(signedIn.body.status).toBe('OK');
    expect((await server.api.get('session/user', { sid: signedIn.body.sid })).body.email).toBe(
      'clinician@demo.local',
    );
    const replayed = await loginFrom('10.1.0.1', 'clinician@demo.local', code);
    expect(replayed.body.error_type).toBe('BAD_OTP');
    // The previous step's code is older than the one used: refused too.
    expect((await loginFrom('10.1.0.1', 'clinician@demo.local', codeOf(secret, -1))).body.error_type).toBe(
      'BAD_OTP',
    );
    // A wrong password with a right code is still a wrong password.
    await forgetUsedSteps(ids.clinician!);
    const badPassword = await loginFrom('10.1.0.1', 'clinician@demo.local', codeOf(secret), 'Wrong-pass-1');
    expect(badPassword.body.error_type).toBe('BAD_PASSWORD');
    expect(await sessionsOf(ids.clinician!)).toBe(before + 1);
    const failed = await auditOf(ids.clinician!, 'TWO_FACTOR_CODE_FAILED');
    expect(failed.map((f) => [f.outcome, f.detail, f.ip])).toEqual([
      ['FAILURE', JSON.stringify({ during: 'login' }), '10.1.0.1'],
      ['FAILURE', JSON.stringify({ during: 'login' }), '10.1.0.1'],
    ]);
  });

  it('takes each recovery code once instead of a code, audited with how many are left', async () => {
    const { recovery } = await enrol('viewer@demo.local');
    const typed = recovery[3]!.toLowerCase().replace('-', ' ');
    const signedIn = await loginFrom('10.2.0.1', 'viewer@demo.local', typed);
    expect(signedIn.body.status).toBe('OK');
    expect((await loginFrom('10.2.0.1', 'viewer@demo.local', recovery[3])).body.error_type).toBe('BAD_OTP');
    expect((await server.api.call('user/totp/get', {}, signedIn.body.sid)).body.recovery_codes_left).toBe(9);
    expect(await auditOf(ids.viewer!, 'TWO_FACTOR_RECOVERY_CODE_USED')).toEqual([
      expect.objectContaining({ detail: JSON.stringify({ left: 9 }), ip: '10.2.0.1' }),
    ]);
    const login = await auditOf(ids.viewer!, 'LOGIN');
    expect(login.map((l) => l.detail)).toContain(JSON.stringify({ two_factor: 'recovery' }));
  });

  it('counts wrong codes as failed sign-ins: asking again without a code does not clear them', async () => {
    const { secret } = await enrol('partner@demo.local');
    const wrong = String((Number(codeOf(secret)) + 500_000) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 4; i++) {
      expect((await loginFrom('10.3.0.1', 'partner@demo.local', wrong)).body.error_type).toBe('BAD_OTP');
    }
    expect((await loginFrom('10.3.0.1', 'partner@demo.local')).body.error_type).toBe('MFA_REQUIRED');
    expect((await loginFrom('10.3.0.1', 'partner@demo.local', wrong)).body.error_type).toBe('BAD_OTP');
    const limited = await loginFrom('10.3.0.1', 'partner@demo.local', codeOf(secret));
    expect(limited).toMatchObject({ status: 429, body: { error_type: 'RATE_LIMITED' } });
    // The owner at their own workstation is not locked out by those guesses.
    expect((await loginFrom('10.3.0.2', 'partner@demo.local', codeOf(secret))).body.status).toBe('OK');
  });

  it("an account's admin requires codes: a member without one enrols at sign-in and cannot turn it off", async () => {
    const admin = await server.api.login('admin@demo.local');
    const account = await firstAccountOf(server.api, admin);
    const partner = await loginFrom('10.4.0.9', 'partner@demo.local', codeOf((await enrolledSecret())!, 1));
    // Another account's admin, and a member who is not an admin, change nothing.
    expect(
      (
        await server.api.call(
          'account/two_factor/set',
          { account_id: account, required: '1' },
          partner.body.sid,
        )
      ).body.error_type,
    ).toBe('NOT_FOUND');
    const viewer = await loginFrom(
      '10.4.0.8',
      'viewer@demo.local',
      codeOf((await enrolledSecret('viewer'))!, 1),
    );
    expect(
      (
        await server.api.call(
          'account/two_factor/set',
          { account_id: account, required: '1' },
          viewer.body.sid,
        )
      ).body.error_type,
    ).toBe('NOT_PERMITTED');
    expect(
      (await server.api.call('account/two_factor/set', { account_id: account, required: 'yes' }, admin)).body
        .error_type,
    ).toBe('INVALID_FIELD');
    expect((await server.api.call('account/get', { uuid: account }, admin)).body.settings).not.toHaveProperty(
      'require_two_factor',
    );

    expect(
      (await server.api.call('account/two_factor/set', { account_id: account, required: '1' }, admin)).body
        .status,
    ).toBe('OK');
    expect((await server.api.call('account/get', { uuid: account }, admin)).body.settings).toMatchObject({
      require_two_factor: '1',
    });

    // The admin had no code: the password alone answers a secret to enrol, and no session.
    const before = await sessionsOf(ids.admin!);
    const due = await loginFrom('10.4.0.1', 'admin@demo.local');
    expect(due.body.error_type).toBe('MFA_ENROLMENT_REQUIRED');
    expect(due.body.error_data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(due.body.error_data.qr_svg).toMatch(/^<svg /);
    expect(await sessionsOf(ids.admin!)).toBe(before);
    const wrong = String((Number(codeOf(due.body.error_data.secret)) + 1) % 1_000_000).padStart(6, '0');
    expect((await loginFrom('10.4.0.1', 'admin@demo.local', wrong)).body.error_type).toBe('BAD_OTP');
    const enrolled = await loginFrom('10.4.0.1', 'admin@demo.local', codeOf(due.body.error_data.secret));
    expect(enrolled.body.status).toBe('OK');
    expect(enrolled.body.recovery_codes).toHaveLength(10);
    expect((await loginFrom('10.4.0.1', 'admin@demo.local')).body.error_type).toBe('MFA_REQUIRED');

    // Required: turning it off is refused, and changes nothing.
    const sid = enrolled.body.sid as string;
    const off = await server.api.call('user/totp/disable', { otp: enrolled.body.recovery_codes[0] }, sid);
    expect(off.body).toMatchObject({ error_type: 'NOT_PERMITTED', error_subtype: 'two_factor_required' });
    expect((await server.api.call('user/totp/get', {}, sid)).body).toMatchObject({
      enabled: 1,
      required: 1,
      recovery_codes_left: 10,
    });

    // No longer required: a right code turns it off, and the password alone signs in again.
    await server.api.call('account/two_factor/set', { account_id: account, required: '0' }, sid);
    expect((await server.api.call('user/totp/disable', { otp: '000000' }, sid)).body.error_type).toBe(
      'INVALID_FIELD',
    );
    expect(
      (await server.api.call('user/totp/disable', { otp: enrolled.body.recovery_codes[1] }, sid)).body.status,
    ).toBe('OK');
    expect((await loginFrom('10.4.0.1', 'admin@demo.local')).body.status).toBe('OK');
    const changes = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select('detail')
      .where('action', '=', 'ACCOUNT_SET')
      .where('account_id', '=', account)
      .orderBy('id')
      .execute();
    expect(changes.map((c) => JSON.parse(c.detail!))).toEqual([
      { setting: 'require_two_factor', value: '1', previous: '0' },
      { setting: 'require_two_factor', value: '0', previous: '1' },
    ]);
    expect(await auditOf(ids.admin!, 'TWO_FACTOR_DISABLE')).toHaveLength(1);
  });

  /** The secret of a user enrolled by an earlier test (partner by default). */
  async function enrolledSecret(name = 'partner') {
    const row = await server.ctx.db.kysely
      .selectFrom('user_totp')
      .select('secret')
      .where('user_id', '=', ids[name]!)
      .executeTakeFirst();
    return row?.secret;
  }
});
