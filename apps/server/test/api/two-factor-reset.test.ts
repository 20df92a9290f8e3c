import { authenticator } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstAccountOf, userIdsByName } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DEMO_PASSWORD, DIALECTS, startTestServer } from '../support/test-server.js';

/**
 * account/user/totp/reset: an admin removes a member's two-factor codes after a lost phone. Who may
 * reset whom (the account's user editors, an admin's only by an admin, not one's own, not a person
 * whose home is another account, never another account's member), what is removed, and the audit.
 */
describe.each(DIALECTS)('an admin resets a member’s two-factor codes on %s', (dialect) => {
  let server: TestServer;
  let ids: Record<string, string>;
  let account: string;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    ids = await userIdsByName(server.ctx.db);
    admin = await server.api.login('admin@demo.local');
    account = await firstAccountOf(server.api, admin);
  });
  afterAll(() => server?.stop());

  const login = async (email: string, otp?: string) =>
    (
      await server.api.call('session/login', {
        login: email,
        password: DEMO_PASSWORD,
        ...(otp ? { otp } : {}),
      })
    ).body;
  const reset = async (userId: string, sid: string, accountId = account) =>
    (await server.api.call('account/user/totp/reset', { uuid: accountId, user_id: userId }, sid)).body;
  const stored = async (userId: string) => ({
    secret: await server.ctx.db.kysely
      .selectFrom('user_totp')
      .select('user_id')
      .where('user_id', '=', userId)
      .execute(),
    recovery: await server.ctx.db.kysely
      .selectFrom('user_recovery_codes')
      .select('code_hash')
      .where('user_id', '=', userId)
      .execute(),
  });
  const resets = () =>
    server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['user_id', 'account_id', 'object_id', 'detail'])
      .where('action', '=', 'TWO_FACTOR_RESET')
      .orderBy('id')
      .execute();

  /** Turns codes on for `email` through Account settings → Security (as a phone would). */
  async function enrol(email: string): Promise<void> {
    const sid = await server.api.login(email);
    const started = await server.api.call('user/totp/enrol', {}, sid);
    const confirmed = await server.api.call(
      'user/totp/confirm',
      { otp: authenticator.generate(started.body.secret as string) },
      sid,
    );
    expect(confirmed.body.recovery_codes).toHaveLength(10);
  }

  it('removes the secret and recovery codes: the password alone signs in again, and the reset is audited', async () => {
    await enrol('clinician@demo.local');
    expect(await login('clinician@demo.local')).toMatchObject({ error_type: 'MFA_REQUIRED' });

    expect(await reset(ids.clinician!, admin)).toEqual({ status: 'OK', removed: 1 });
    expect(await stored(ids.clinician!)).toEqual({ secret: [], recovery: [] });
    expect((await login('clinician@demo.local')).sid).toBeTruthy();
    const [event] = await resets();
    expect(event).toMatchObject({ user_id: ids.admin, account_id: account, object_id: ids.clinician });
    expect(JSON.parse(String(event!.detail))).toEqual({
      email: 'clinician@demo.local',
      was_enabled: 1,
      recovery_codes_left: 10,
    });

    // Nothing left to reset: answered, not audited again.
    expect(await reset(ids.clinician!, admin)).toEqual({ status: 'OK', removed: 0 });
    expect(await resets()).toHaveLength(1);
  });

  it('when the account requires codes, the member enrols again at the next sign-in', async () => {
    await enrol('viewer@demo.local');
    const required = await server.api.call(
      'account/two_factor/set',
      { account_id: account, required: '1' },
      admin,
    );
    expect(required.body.status).toBe('OK');
    try {
      expect(await reset(ids.viewer!, admin)).toMatchObject({ removed: 1 });
      const answer = await login('viewer@demo.local');
      expect(answer).toMatchObject({ status: 'ERROR', error_type: 'MFA_ENROLMENT_REQUIRED' });
      expect(answer.sid).toBeUndefined();
    } finally {
      await server.api.call('account/two_factor/set', { account_id: account, required: '0' }, admin);
    }
  });

  it('refuses another account’s admin, members without user editing, one’s own codes and bad input, changing nothing', async () => {
    await enrol('viewer@demo.local');
    const before = await stored(ids.viewer!);
    const audited = (await resets()).length;

    // Another account's admin: this account does not exist for them.
    const partner = await server.api.login('partner@demo.local');
    expect(await reset(ids.viewer!, partner)).toMatchObject({
      error_type: 'NOT_FOUND',
      error_subtype: 'account',
    });
    const partnerAccount = await firstAccountOf(server.api, partner);
    expect(await reset(ids.viewer!, partner, partnerAccount)).toMatchObject({
      error_type: 'NOT_FOUND',
      error_subtype: 'user',
    });
    // A member who may see users but not edit them.
    const clinician = await server.api.login('clinician@demo.local');
    expect(await reset(ids.viewer!, clinician)).toMatchObject({ error_type: 'NOT_PERMITTED' });
    // The admin's own codes are turned off with a code, in Account settings.
    expect(await reset(ids.admin!, admin)).toMatchObject({
      error_type: 'NOT_PERMITTED',
      error_subtype: 'own_two_factor',
    });
    // Bad input.
    expect((await server.api.call('account/user/totp/reset', { uuid: account }, admin)).body).toMatchObject({
      status: 'ERROR',
      error_type: 'MISSING_FIELDS',
    });
    expect(await reset('00000000-0000-4000-8000-000000000000', admin)).toMatchObject({
      error_type: 'NOT_FOUND',
      error_subtype: 'user',
    });
    expect(await reset(ids.viewer!, 'not-a-session')).toMatchObject({ status: 'ERROR' });

    expect(await stored(ids.viewer!)).toEqual(before);
    expect(await resets()).toHaveLength(audited);
  });

  it('a delegated admin holding user editing may reset a member, not an admin; a member from another account is theirs', async () => {
    const role = await server.api.call(
      'role/add',
      { account_id: account, name: 'User desk', permissions: 'account_user_view,account_user_edit' },
      admin,
    );
    expect(role.body.status).toBe('OK');
    const given = await server.api.call(
      'account/user/set',
      { uuid: account, user_id: ids.gatekeeper!, role_id: role.body.uuid as string },
      admin,
    );
    expect(given.body.status).toBe('OK');
    const desk = await server.api.login('gatekeeper@demo.local');

    await enrol('clinician@demo.local');
    expect(await reset(ids.clinician!, desk)).toMatchObject({ status: 'OK', removed: 1 });
    const [last] = (await resets()).slice(-1);
    expect(last).toMatchObject({ user_id: ids.gatekeeper, object_id: ids.clinician });
    // An admin's codes are an admin's to reset.
    expect(await reset(ids.admin!, desk)).toMatchObject({
      error_type: 'NOT_PERMITTED',
      error_subtype: 'admin',
    });

    // The partner's admin joins this account by invitation: their sign-in is their home account's.
    const invited = await server.api.call(
      'account/user/add',
      { uuid: account, email: 'partner@demo.local' },
      admin,
    );
    expect(invited.body.status).toBe('OK');
    const partner = await server.api.login('partner@demo.local');
    const accepted = await server.api.call('account/invitation/accept', { uuid: account }, partner);
    expect(accepted.body.status).toBe('OK');
    expect(await reset(ids.partner!, admin)).toMatchObject({
      error_type: 'NOT_PERMITTED',
      error_subtype: 'home_account',
    });
  });
});
