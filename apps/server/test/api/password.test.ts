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
    server = await startTestServer(dialect);
  });
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
});
