import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstAccountOf } from '../support/demo-world.js';
import { CookieJar } from '../support/oidc-browser.js';
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

/** The hidden fields of the identity provider's auto-posting page, and where it posts them. */
function postedForm(html: string) {
  const action = /<form id="answer" method="post" action="([^"]+)"/.exec(html)?.[1];
  const field = (name: string) =>
    new RegExp(`name="${name}" value="([^"]*)"`)
      .exec(html)?.[1]
      ?.replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
  return { action, SAMLResponse: field('SAMLResponse'), RelayState: field('RelayState') };
}

// One dialect: what is checked here is the start-up wiring; the SAML checks themselves run on both
// in test/api/sso-saml.test.ts, and the browser's way in e2e/specs/sso-saml-sign-in.e2e.test.ts.
describe('DEMO_SSO=saml: the demo account signs in through a local SAML identity provider', () => {
  let server: TestServer;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = await startTestServer('sqlite', { PORT: String(port), PUBLIC_URL: base, DEMO_SSO: 'saml' });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('points the demo account at the provider, whose page checks the password and posts a signed assertion', async () => {
    const admin = await server.api.login('admin@demo.local');
    const account = await firstAccountOf(server.api, admin);
    const { body } = await server.api.call('account/sso/get', { account_id: account }, admin);
    expect(body.sso).toMatchObject({ type: 'saml', enabled: 1, jit: 0, require_sso: 0 });
    const issuer = body.sso.issuer as string;
    expect(issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/saml\/metadata$/);
    const metadata = await (await fetch(issuer)).text();
    expect(metadata).toContain(`entityID="${issuer}"`);

    const jar = new CookieJar();
    const signOn = async () => {
      const started = await jar.fetch(`${base}/api/v3/session/sso/start?account_id=${account}`);
      expect(started.status).toBe(303);
      const sso = started.headers.get('location')!;
      expect(sso.startsWith(body.sso.entry_point as string)).toBe(true);
      const atIdp = await jar.fetch(sso);
      expect(atIdp.status).toBe(303);
      const page = new URL(atIdp.headers.get('location')!, sso).href;
      expect(await (await jar.fetch(page)).text()).toContain('name="password"');
      return page;
    };
    const login = (page: string, who: string, password: string) =>
      jar.fetch(`${page}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ login: who, password }).toString(),
      });

    // A wrong password and a login the provider does not know: its page again, nothing posted.
    const page = await signOn();
    for (const [who, password] of [
      ['clinician@demo.local', 'wrong'],
      ['stranger@demo.local', DEMO_PASSWORD],
    ]) {
      const refused = await (await login(page, who!, password!)).text();
      expect(refused).toContain('Wrong login or password.');
      expect(postedForm(refused).SAMLResponse).toBeUndefined();
    }

    // The right one: a signed assertion posted to our ACS, then the callback makes the session.
    const html = await (await login(page, 'clinician@demo.local', DEMO_PASSWORD)).text();
    const form = postedForm(html);
    expect(form.action).toBe(`${base}/api/v3/session/sso/saml/acs`);
    expect(Buffer.from(form.SAMLResponse!, 'base64').toString()).toContain('SignatureValue');
    const acs = await jar.fetch(form.action!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        SAMLResponse: form.SAMLResponse!,
        RelayState: form.RelayState!,
      }).toString(),
    });
    expect(acs.status).toBe(303);
    const callback = new URL(acs.headers.get('location')!, base).href;
    expect(callback.startsWith(`${base}/api/v3/session/sso/callback`)).toBe(true);
    const done = await jar.fetch(callback);
    const sid = new URLSearchParams(done.headers.get('location')!.split('#')[1] ?? '').get('sid');
    expect(sid).toBeTruthy();
    expect((await server.api.call('user/get', {}, sid!)).body.email).toBe('clinician@demo.local');

    // Cancel: the provider posts a response without assertion; the sign-in page is told why.
    const cancelled = postedForm(
      await (await jar.fetch(`${await signOn()}/abort`, { method: 'POST' })).text(),
    );
    const back = await jar.fetch(cancelled.action!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        SAMLResponse: cancelled.SAMLResponse!,
        RelayState: cancelled.RelayState!,
      }).toString(),
    });
    expect(back.headers.get('location')).toBe('/?sso_error=provider_error');
  });
});
