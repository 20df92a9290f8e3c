import { MESSAGES } from '@imaging-inbox/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DEMO_PASSWORD, DIALECTS, startTestServer } from '../support/test-server.js';

async function lastResetToken(server: TestServer, email: string): Promise<string> {
  const mail = await server.ctx.db.kysely
    .selectFrom('outbox')
    .selectAll()
    .where('to_address', '=', email)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const match = /reset-password\?token=([A-Za-z0-9_%-]+)/.exec(mail.body);
  return decodeURIComponent(match![1]!);
}

describe.each(DIALECTS)('password recovery on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    // The test client is the trusted proxy, so X-Forwarded-For can play other client addresses.
    server = await startTestServer(dialect, { TRUST_PROXY: '127.0.0.1' });
  });

  /** user/password/lost as sent from `address`. */
  async function lost(email: string, address = '127.0.0.1'): Promise<unknown> {
    const response = await fetch(`${server.url}/api/v3/user/password/lost`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
      body: new URLSearchParams({ email }),
    });
    expect(response.status).toBe(200);
    return response.json();
  }

  async function mailsTo(email: string): Promise<number> {
    const rows = await server.ctx.db.kysely
      .selectFrom('outbox')
      .select('id')
      .where('to_address', '=', email)
      .execute();
    return rows.length;
  }
  afterAll(() => server?.stop());

  it('answers the same for known and unknown addresses, and mails only the known one', async () => {
    const known = await server.api.call('user/password/lost', { email: 'viewer@demo.local' });
    const unknown = await server.api.call('user/password/lost', { email: 'nobody@demo.local' });
    expect(known.body).toEqual({ status: 'OK', message: MESSAGES.passwordLostSent });
    expect(unknown.body).toEqual(known.body);
    const mails = await server.ctx.db.kysely.selectFrom('outbox').select('to_address').execute();
    expect(mails.map((m) => m.to_address)).toEqual(['viewer@demo.local']);
  });

  it('resets with the mailed token once, enforcing the password rules and reuse', async () => {
    await server.api.call('user/password/lost', { email: 'gatekeeper@demo.local' });
    const token = await lastResetToken(server, 'gatekeeper@demo.local');
    const weak = await server.api.call('user/password/reset', { token, password: 'abcdefg1' });
    expect(weak.body.error_type).toBe('BAD_PASSWORD');
    const reused = await server.api.call('user/password/reset', { token, password: DEMO_PASSWORD });
    expect(reused.body).toMatchObject({ error_type: 'BAD_PASSWORD', error_subtype: 'reused' });
    const ok = await server.api.call('user/password/reset', { token, password: 'New-pass-77' });
    expect(ok.body.status).toBe('OK');
    const replay = await server.api.call('user/password/reset', { token, password: 'Other-pass-88' });
    expect(replay.body.error_type).toBe('NOT_FOUND');
    expect(
      (await server.api.call('session/login', { login: 'gatekeeper@demo.local', password: DEMO_PASSWORD }))
        .body.error_type,
    ).toBe('BAD_PASSWORD');
    await server.api.login('gatekeeper@demo.local', 'New-pass-77');
  });

  it('refuses an expired or made-up token and changes nothing', async () => {
    await server.api.call('user/password/lost', { email: 'viewer@demo.local' });
    const token = await lastResetToken(server, 'viewer@demo.local');
    await server.ctx.db.kysely
      .updateTable('password_resets')
      .set({ expires: Date.now() - 1 })
      .execute();
    expect(
      (await server.api.call('user/password/reset', { token, password: 'Fresh-pass-55' })).body.error_type,
    ).toBe('EXPIRED');
    expect(
      (await server.api.call('user/password/reset', { token: 'made-up', password: 'Fresh-pass-55' })).body
        .error_type,
    ).toBe('NOT_FOUND');
    await server.api.login('viewer@demo.local');
  });

  it('keeps one live token per user: a newer request revokes the older one', async () => {
    await lost('clinician@demo.local');
    const older = await lastResetToken(server, 'clinician@demo.local');
    await lost('clinician@demo.local');
    const newer = await lastResetToken(server, 'clinician@demo.local');
    const stale = await server.api.call('user/password/reset', { token: older, password: 'Older-pass-11' });
    expect(stale.body.error_type).toBe('NOT_FOUND');
    await server.api.login('clinician@demo.local');
    const ok = await server.api.call('user/password/reset', { token: newer, password: 'Newer-pass-22' });
    expect(ok.body.status).toBe('OK');
    await server.api.login('clinician@demo.local', 'Newer-pass-22');
  });

  it('revokes every reset link when the password is changed another way', async () => {
    await lost('admin@demo.local');
    const token = await lastResetToken(server, 'admin@demo.local');
    const sid = await server.api.login('admin@demo.local');
    const changed = await server.api.call(
      'user/password/change',
      { old_password: DEMO_PASSWORD, password: 'Changed-pass-33', password_confirm: 'Changed-pass-33' },
      sid,
    );
    expect(changed.body.status).toBe('OK');
    const late = await server.api.call('user/password/reset', { token, password: 'Late-pass-44' });
    expect(late.body.error_type).toBe('NOT_FOUND');
    await server.api.login('admin@demo.local', 'Changed-pass-33');
  });

  it('mails one address at most 3 times an hour, answering the same every time', async () => {
    const answers = [];
    for (let i = 0; i < 25; i++) answers.push(await lost('partner@demo.local', `10.1.0.${i + 1}`));
    expect(new Set(answers.map((a) => JSON.stringify(a)))).toEqual(
      new Set([JSON.stringify({ status: 'OK', message: MESSAGES.passwordLostSent })]),
    );
    expect(await mailsTo('partner@demo.local')).toBe(3);
  });

  it('sends nothing more from one client address after 10 requests an hour, answering the same', async () => {
    const before = await mailsTo('gatekeeper@demo.local');
    for (let i = 0; i < 10; i++) await lost(`nobody-${i}@demo.local`, '10.2.0.1');
    expect(await lost('gatekeeper@demo.local', '10.2.0.1')).toEqual({
      status: 'OK',
      message: MESSAGES.passwordLostSent,
    });
    expect(await mailsTo('gatekeeper@demo.local')).toBe(before);
    await lost('gatekeeper@demo.local', '10.2.0.2');
    expect(await mailsTo('gatekeeper@demo.local')).toBe(before + 1);
  });
});
