import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalIdentityProvider } from '../../src/seed/demo-identity-provider.js';
import { startLocalIdentityProvider } from '../../src/seed/demo-identity-provider.js';
import { firstAccountOf } from '../support/demo-world.js';
import { CookieJar, signInAtProvider, tamperNextIdToken } from '../support/oidc-browser.js';
import { ssoBase, startSsoWorld, type SsoWorld } from '../support/sso-world.js';
import type { TestServer } from '../support/test-server.js';
import { DEMO_PASSWORD, DIALECTS } from '../support/test-server.js';

/** What the provider's page checks (its users' password there, not ours). */
const IDP_PASSWORD = 'Provider-pass-2026';

describe.each(DIALECTS)('single sign-on with OpenID Connect (real oidc-provider) on %s', (dialect) => {
  let world: SsoWorld;
  let server: TestServer;
  let idp: LocalIdentityProvider;
  let base: string;
  let admin: string;
  let demoAccount: string;
  let partnerAccount: string;
  let radiologist: string;
  let referring: string;
  let emergency: string;

  beforeAll(async () => {
    base = await ssoBase();
    idp = await startLocalIdentityProvider({
      clients: [
        {
          client_id: 'imaging-inbox',
          client_secret: 'inbox-client-secret-for-tests',
          redirect_uris: [`${base}/api/v3/session/sso/callback`],
          post_logout_redirect_uris: [`${base}/`],
        },
      ],
      users: [
        {
          login: 'clinician',
          password: IDP_PASSWORD,
          email: 'clinician@demo.local',
          given_name: 'Claire',
          family_name: 'Renamed',
        },
        {
          login: 'newcomer',
          password: IDP_PASSWORD,
          email: 'newcomer@demo.local',
          given_name: 'Nadia',
          family_name: 'New',
          groups: ['radiology'],
        },
        {
          login: 'referrer',
          password: IDP_PASSWORD,
          email: 'referrer@demo.local',
          given_name: 'Rui',
          family_name: 'Ref',
          groups: ['referring'],
        },
        {
          login: 'stranger',
          password: IDP_PASSWORD,
          email: 'stranger@elsewhere.example',
          given_name: 'S',
          family_name: 'T',
        },
      ],
    });
    world = await startSsoWorld(dialect, base);
    ({ server, admin, demoAccount, radiologist, referring, emergency } = world);
    partnerAccount = await firstAccountOf(server.api, await server.api.login('partner@demo.local'));
  });
  afterAll(async () => {
    await server?.stop();
    await idp?.stop();
  });

  const configure = (extra: Record<string, string> = {}) =>
    world.configure(
      {
        type: 'oidc',
        display_name: 'Demo IdP',
        issuer: idp.issuer,
        client_id: 'imaging-inbox',
        client_secret: 'inbox-client-secret-for-tests',
        scopes: 'openid email profile groups',
      },
      extra,
    );

  const audit = (action: string) => world.audit(action);

  /** start → the provider's page → the callback, as a browser; answers every hop. */
  async function signIn(login: string, start: Record<string, string> = {}) {
    const jar = new CookieJar();
    const query = new URLSearchParams({ account_id: demoAccount, ...start });
    if (!query.get('account_id')) query.delete('account_id');
    const startUrl = `${base}/api/v3/session/sso/start?${query.toString()}`;
    const started = await jar.fetch(startUrl);
    expect(started.status, await started.clone().text()).toBe(303);
    const authUrl = started.headers.get('location')!;
    const callbackUrl = await signInAtProvider(jar, idp, authUrl, login);
    const done = await jar.fetch(callbackUrl);
    expect(done.status).toBe(303);
    const landed = done.headers.get('location')!;
    const fragment = new URLSearchParams(landed.split('#')[1] ?? '');
    return { jar, authUrl, callbackUrl, landed, sid: fragment.get('sid'), to: fragment.get('to') };
  }

  it('account/sso/set keeps the provider and answers it without the secret; bad input changes nothing', async () => {
    expect((await server.api.call('account/sso/get', { account_id: demoAccount }, admin)).body).toMatchObject(
      {
        sso: null,
        redirect_uri: `${base}/api/v3/session/sso/callback`,
      },
    );
    const saved = await configure();
    expect(saved.body.status).toBe('OK');
    expect(saved.body.sso).toMatchObject({
      type: 'oidc',
      issuer: idp.issuer,
      client_id: 'imaging-inbox',
      client_secret_set: 1,
      claim_email: 'email',
      jit: 0,
      require_sso: 0,
    });
    expect(JSON.stringify(saved.body)).not.toContain('inbox-client-secret-for-tests');
    const read = await server.api.call('account/sso/get', { account_id: demoAccount }, admin);
    expect(JSON.stringify(read.body)).not.toContain('inbox-client-secret-for-tests');
    expect(read.body.sso.client_secret_set).toBe(1);
    const stored = await server.ctx.db.kysely.selectFrom('account_sso').selectAll().executeTakeFirstOrThrow();
    expect(stored.client_secret).toBe('inbox-client-secret-for-tests');
    // The secret never reaches the audit log either.
    expect(JSON.stringify(await audit('ACCOUNT_SSO_SET'))).not.toContain('inbox-client-secret-for-tests');

    for (const [field, value] of [
      ['issuer', 'http://idp.example.org'],
      ['issuer', 'not a url'],
      ['scopes', 'email profile'],
      ['type', 'ldap'],
      ['role_map', '[{"value":"x"}]'],
      ['role_map', JSON.stringify([{ value: 'x', role_id: 'made-up' }])],
      ['default_role_id', 'made-up'],
      ['claim_email', 'email address'],
      ['domains', 'not a domain'],
      ['jit', 'maybe'],
    ]) {
      const refused = await configure({ [field!]: value! });
      expect(refused.body, `${field}=${value}`).toMatchObject({
        status: 'ERROR',
        error_type: 'INVALID_FIELD',
      });
    }
    // SSO required with nobody left to sign in with a password, or JIT without a role: refused.
    expect((await configure({ require_sso: '1' })).body.error_subtype).toBe('break_glass_email');
    expect((await configure({ jit: '1' })).body.error_subtype).toBe('default_role_id');
    expect(
      (await configure({ require_sso: '1', break_glass_email: 'clinician@demo.local' })).body.error_subtype,
    ).toBe('break_glass_email');
    expect(
      (await server.api.call('account/sso/get', { account_id: demoAccount }, admin)).body.sso,
    ).toMatchObject({
      issuer: idp.issuer,
      jit: 0,
      require_sso: 0,
    });
  });

  it("another account's admin, a member and an anonymous caller cannot read or set the provider", async () => {
    const partner = await server.api.login('partner@demo.local');
    for (const path of ['account/sso/get', 'account/sso/set']) {
      const other = await server.api.call(
        path,
        {
          account_id: demoAccount,
          type: 'oidc',
          display_name: 'x',
          issuer: 'https://evil.example',
          client_id: 'x',
        },
        partner,
      );
      const missing = await server.api.call(
        path,
        {
          account_id: '00000000-0000-4000-8000-000000000000',
          type: 'oidc',
          display_name: 'x',
          issuer: 'https://evil.example',
          client_id: 'x',
        },
        partner,
      );
      expect(other.body).toEqual(missing.body);
      expect(other.body.error_type).toBe('NOT_FOUND');
    }
    const clinician = await server.api.login('clinician@demo.local');
    expect(
      (await server.api.call('account/sso/get', { account_id: demoAccount }, clinician)).body.error_type,
    ).toBe('NOT_PERMITTED');
    expect((await server.api.call('account/sso/get', { account_id: demoAccount })).status).toBe(401);
    expect(
      (await server.api.call('account/sso/get', { account_id: demoAccount }, admin)).body.sso.issuer,
    ).toBe(idp.issuer);
    // The partner's own account has no provider; reading it is theirs.
    expect(
      (await server.api.call('account/sso/get', { account_id: partnerAccount }, partner)).body.sso,
    ).toBeNull();
  });

  it('signs a member in through the provider: PKCE, state and nonce sent, the same session as a password, names refreshed, audited', async () => {
    const { authUrl, sid, to, landed } = await signIn('clinician', { return_to: '/group/list?x=1' });
    const asked = new URL(authUrl);
    expect(asked.origin).toBe(idp.issuer);
    expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
    expect(asked.searchParams.get('state')).toBeTruthy();
    expect(asked.searchParams.get('nonce')).toBeTruthy();
    expect(asked.searchParams.get('redirect_uri')).toBe(`${base}/api/v3/session/sso/callback`);
    expect(landed.startsWith('/sso#')).toBe(true);
    expect(to).toBe('/group/list?x=1');
    const me = await server.api.call('session/user', {}, sid!);
    expect(me.body).toMatchObject({ email: 'clinician@demo.local', first: 'Claire', last: 'Renamed' });
    expect((await server.api.call('session/ttl', {}, sid!)).body.ttl).toBeGreaterThan(0);
    const events = await audit('SSO_LOGIN');
    expect(events.at(-1)).toMatchObject({ account_id: demoAccount, outcome: 'SUCCESS' });
    expect(JSON.parse(events.at(-1)!.detail!)).toMatchObject({
      provider: 'Demo IdP',
      issuer: idp.issuer,
      subject: 'clinician',
    });
    // Without a return path it lands on the inbox.
    expect((await signIn('clinician')).to).toBe('/group/list');
    // Sign-out ends the local session and names the provider's end-session page.
    const out = await server.api.call('session/logout', {}, sid!);
    expect(out.body.logout_url).toMatch(new RegExp(`^${idp.issuer}/session/end\\?`));
    expect(new URL(out.body.logout_url).searchParams.get('post_logout_redirect_uri')).toBe(`${base}/`);
    expect((await server.api.call('session/user', {}, sid!)).status).toBe(401);
  });

  it('without JIT an unknown person is refused; with it they are created with the default role, and the role claim maps roles and groups', async () => {
    const refused = await signIn('newcomer');
    expect(refused.landed).toBe('/?sso_error=no_account');
    expect(await server.ctx.repos.users.findByEmail('newcomer@demo.local')).toBeUndefined();

    const map = [
      { value: 'radiology', role_id: radiologist },
      { value: 'radiology', role_id: radiologist, group_id: emergency },
      { value: 'referring', role_id: referring },
    ];
    expect(
      (
        await configure({
          jit: '1',
          default_role_id: referring,
          claim_roles: 'groups',
          role_map: JSON.stringify(map),
        })
      ).body.status,
    ).toBe('OK');
    const { sid } = await signIn('newcomer');
    const user = (await server.ctx.repos.users.findByEmail('newcomer@demo.local'))!;
    expect(user).toMatchObject({ first_name: 'Nadia', last_name: 'New', home_account_id: demoAccount });
    expect((await server.api.call('session/user', {}, sid!)).body.email).toBe('newcomer@demo.local');
    expect((await audit('SSO_JIT_CREATE')).at(-1)).toMatchObject({
      user_id: user.uuid,
      account_id: demoAccount,
    });
    const member = await world.membership(user.uuid);
    expect(member.role_id).toBe(radiologist);
    const inGroup = await world.groupsOf(user.uuid);
    expect(inGroup).toMatchObject([{ group_id: emergency, role_id: radiologist }]);
    // The mapped group shows in their inbox.
    expect((await server.api.groups(sid!)).map((g) => g.name)).toContain('Emergency');
    expect((await audit('SSO_ROLE_CHANGE')).at(-1)).toMatchObject({ user_id: user.uuid });

    // The directory moves them: the next sign-in follows the claim, the group goes.
    idp.users.get('newcomer')!.groups = ['referring'];
    await signIn('newcomer');
    const after = await world.membership(user.uuid);
    expect(after.role_id).toBe(referring);
    expect(await world.groupsOf(user.uuid)).toEqual([]);
    const change = JSON.parse((await audit('SSO_ROLE_CHANGE')).at(-1)!.detail!);
    expect(change.account_role).toEqual({ from: radiologist, to: referring });
    expect(change.groups).toEqual([{ group_id: emergency, from: radiologist, to: null }]);
  });

  it('finds the provider by e-mail (the person, or the domain) for the sign-in page', async () => {
    expect((await server.api.call('session/sso/lookup', {})).body).toEqual({
      status: 'OK',
      any: 1,
      provider: null,
    });
    expect(
      (await server.api.call('session/sso/lookup', { email: 'clinician@demo.local' })).body.provider,
    ).toMatchObject({
      account_id: demoAccount,
      display_name: 'Demo IdP',
    });
    expect(
      (await server.api.call('session/sso/lookup', { email: 'partner@demo.local' })).body.provider,
    ).toBeNull();
    const { sid } = await signIn('clinician', { account_id: '', email: 'clinician@demo.local' });
    expect(sid).toBeTruthy();
    expect(
      (await server.api.call('session/sso/lookup', { email: 'someone@hospital.example' })).body.provider,
    ).toBeNull();
    await configure({ domains: 'hospital.example' });
    expect(
      (await server.api.call('session/sso/lookup', { email: 'someone@hospital.example' })).body.provider
        .account_id,
    ).toBe(demoAccount);
  });

  it('required SSO refuses members their password with SSO_REQUIRED, except the break-glass admin', async () => {
    expect((await configure({ require_sso: '1', break_glass_email: 'admin@demo.local' })).body.status).toBe(
      'OK',
    );
    const refused = await server.api.call('session/login', {
      login: 'clinician@demo.local',
      password: DEMO_PASSWORD,
    });
    expect(refused.body).toMatchObject({
      status: 'ERROR',
      error_type: 'SSO_REQUIRED',
      error_data: { account_id: demoAccount, provider: 'Demo IdP' },
    });
    // A wrong password still answers BAD_PASSWORD: the rule is learnt only with the right one.
    const wrong = await server.api.call('session/login', {
      login: 'clinician@demo.local',
      password: 'Wrong-pass-2024',
    });
    expect(wrong.body.error_type).toBe('BAD_PASSWORD');
    expect(
      (await server.api.call('session/login', { login: 'admin@demo.local', password: DEMO_PASSWORD })).body
        .status,
    ).toBe('OK');
    // Members of other accounts are not touched.
    expect(
      (await server.api.call('session/login', { login: 'partner@demo.local', password: DEMO_PASSWORD })).body
        .status,
    ).toBe('OK');
    // Through the provider they still sign in.
    expect((await signIn('clinician')).sid).toBeTruthy();
    expect((await configure({ require_sso: '0' })).body.status).toBe('OK');
    expect(
      (await server.api.call('session/login', { login: 'clinician@demo.local', password: DEMO_PASSWORD }))
        .body.status,
    ).toBe('OK');
  });

  /** A sign-in whose callback is changed or replayed: refused with its reason, no session, audited. */
  async function expectRefused(landed: string, reason: string) {
    expect(landed).toBe(`/?sso_error=${reason}`);
    const last = (await audit('SSO_LOGIN_REFUSED')).at(-1)!;
    expect(last.outcome).toBe('FAILURE');
    expect(JSON.parse(last.detail!).reason).toBe(reason);
    return JSON.parse(last.detail!).why as string;
  }

  it('refuses a wrong state, a replayed callback and a replayed code', async () => {
    const jar = new CookieJar();
    const started = await jar.fetch(`${base}/api/v3/session/sso/start?account_id=${demoAccount}`);
    const callbackUrl = await signInAtProvider(jar, idp, started.headers.get('location')!, 'clinician');
    const wrong = new URL(callbackUrl);
    wrong.searchParams.set('state', 'made-up-state');
    await expectRefused((await jar.fetch(wrong.href)).headers.get('location')!, 'state');
    // The real one still works once, then the same answer is refused.
    const first = await jar.fetch(callbackUrl);
    expect(first.headers.get('location')).toMatch(/^\/sso#sid=/);
    await expectRefused((await jar.fetch(callbackUrl)).headers.get('location')!, 'state');

    // The code replayed under a fresh state of this browser: the provider refuses the used code.
    const code = new URL(callbackUrl).searchParams.get('code')!;
    const again = await jar.fetch(`${base}/api/v3/session/sso/start?account_id=${demoAccount}`);
    const state = new URL(again.headers.get('location')!).searchParams.get('state')!;
    const replay = new URL(`${base}/api/v3/session/sso/callback`);
    replay.search = new URLSearchParams({ code, state, iss: idp.issuer }).toString();
    const why = await expectRefused((await jar.fetch(replay.href)).headers.get('location')!, 'token');
    expect(why).toMatch(/invalid_grant/);

    // A callback in another browser (no flow cookie) is refused even with a right state.
    const jar2 = new CookieJar();
    const third = await jar2.fetch(`${base}/api/v3/session/sso/start?account_id=${demoAccount}`);
    const thirdCallback = await signInAtProvider(jar2, idp, third.headers.get('location')!, 'clinician');
    await expectRefused(
      (await fetch(thirdCallback, { redirect: 'manual' })).headers.get('location')!,
      'state',
    );
  });

  it('refuses an ID token for another audience, an expired one and one with another nonce', async () => {
    const cases: [string, (c: Record<string, unknown>) => Record<string, unknown>, RegExp][] = [
      ['audience', (c) => ({ ...c, aud: 'another-client' }), /aud/],
      [
        'expired',
        (c) => ({
          ...c,
          iat: Math.floor(Date.now() / 1000) - 7200,
          exp: Math.floor(Date.now() / 1000) - 3600,
        }),
        /exp/,
      ],
      ['nonce', (c) => ({ ...c, nonce: 'another-nonce' }), /nonce/],
      ['issuer', (c) => ({ ...c, iss: 'https://evil.example' }), /iss/],
    ];
    for (const [name, change, message] of cases) {
      tamperNextIdToken(idp, change);
      const { landed, sid } = await signIn('clinician');
      expect(sid, name).toBeNull();
      expect(await expectRefused(landed, 'token'), name).toMatch(message);
    }
    // A token signed with another key than the provider's.
    const other = {
      ...idp,
      signingKey: {
        ...(await import('node:crypto'))
          .generateKeyPairSync('rsa', { modulusLength: 2048 })
          .privateKey.export({ format: 'jwk' }),
        kid: 'local-1',
      },
    };
    tamperNextIdToken(other, (c) => c);
    const forged = await signIn('clinician');
    expect(await expectRefused(forged.landed, 'token')).toMatch(/signature/i);
  });

  it('refuses a return URL outside the app (open redirect) before anything is started', async () => {
    for (const returnTo of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      '/ok\r\nX: y',
    ]) {
      const answer = await fetch(
        `${base}/api/v3/session/sso/start?${new URLSearchParams({ account_id: demoAccount, return_to: returnTo }).toString()}`,
        { redirect: 'manual' },
      );
      const body = (await answer.json()) as { error_type: string; error_subtype: string };
      expect(body, returnTo).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'return_to' });
    }
    const unknown = await fetch(`${base}/api/v3/session/sso/start?account_id=${partnerAccount}`, {
      redirect: 'manual',
    });
    expect(((await unknown.json()) as { error_type: string }).error_type).toBe('NOT_FOUND');
  });
});
