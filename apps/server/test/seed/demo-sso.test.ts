import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstAccountOf } from '../support/demo-world.js';
import { CookieJar, signInAtProvider } from '../support/oidc-browser.js';
import type { TestServer } from '../support/test-server.js';
import { DEMO_PASSWORD, startTestServer } from '../support/test-server.js';

/** A port free right now (the server's public URL names it, so it is chosen before the start). */
const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

// One dialect: what is checked here is the start-up wiring; the flow itself runs on both in
// test/api/sso-oidc.test.ts.
describe('DEMO_SSO=1: the demo account signs in through a local identity provider', () => {
  let server: TestServer;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = await startTestServer('sqlite', { PORT: String(port), PUBLIC_URL: base, DEMO_SSO: '1' });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('points the demo account at the provider, which answers discovery, and signs a demo user in', async () => {
    const admin = await server.api.login('admin@demo.local');
    const account = await firstAccountOf(server.api, admin);
    const { body } = await server.api.call('account/sso/get', { account_id: account }, admin);
    expect(body.sso).toMatchObject({ enabled: 1, jit: 0, require_sso: 0, client_secret_set: 1 });
    const issuer = body.sso.issuer as string;
    expect(issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const discovery = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as {
      issuer: string;
    };
    expect(discovery.issuer).toBe(issuer);

    // start → the provider's own login form → the callback → a session, as a browser would.
    const jar = new CookieJar();
    const started = await jar.fetch(`${base}/api/v3/session/sso/start?account_id=${account}`);
    expect(started.status).toBe(303);
    const authUrl = started.headers.get('location')!;
    expect(authUrl.startsWith(issuer)).toBe(true);
    const idp = { issuer };
    // The provider checks the password (the demo password here), and refuses a wrong one.
    await expect(
      signInAtProvider(new CookieJar(), idp, authUrl, 'clinician@demo.local', 'wrong'),
    ).rejects.toThrow(/refused the login/);
    const callbackUrl = await signInAtProvider(jar, idp, authUrl, 'clinician@demo.local', DEMO_PASSWORD);
    expect(callbackUrl.startsWith(`${base}/api/v3/session/sso/callback`)).toBe(true);
    const done = await jar.fetch(callbackUrl);
    expect(done.status).toBe(303);
    const sid = new URLSearchParams(done.headers.get('location')!.split('#')[1] ?? '').get('sid');
    expect(sid).toBeTruthy();
    const me = await server.api.call('user/get', {}, sid!);
    expect(me.body.email).toBe('clinician@demo.local');

    // JIT is off: a login the provider knows of no account member is refused by the provider.
    await expect(
      signInAtProvider(new CookieJar(), idp, authUrl, 'stranger@demo.local', DEMO_PASSWORD),
    ).rejects.toThrow(/refused the login/);
  });
});
