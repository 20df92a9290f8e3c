import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar } from '../support/oidc-browser.js';
import { SamlTestIdp, decode, encode, type SamlAnswer, type SamlUser } from '../support/saml-idp.js';
import type { TestPki } from '../support/tls-certs.js';
import { makeTestPki } from '../support/tls-certs.js';
import { ssoBase, startSsoWorld, type SsoWorld } from '../support/sso-world.js';
import type { TestServer } from '../support/test-server.js';
import { DEMO_PASSWORD, DIALECTS } from '../support/test-server.js';

const CLINICIAN: SamlUser = {
  nameId: 'clinician-1',
  email: 'clinician@demo.local',
  first: 'Claire',
  last: 'Samled',
};

describe.each(DIALECTS)('single sign-on with SAML 2.0 (real samlify identity provider) on %s', (dialect) => {
  let world: SsoWorld;
  let server: TestServer;
  let pki: TestPki;
  let idp: SamlTestIdp;
  let base: string;
  let admin: string;
  let demoAccount: string;
  let radiologist: string;
  let referring: string;
  let emergency: string;
  let spMetadata: string;

  beforeAll(async () => {
    base = await ssoBase();
    pki = await makeTestPki();
    idp = new SamlTestIdp(pki);
    world = await startSsoWorld(dialect, base);
    ({ server, admin, demoAccount, radiologist, referring, emergency } = world);
  });
  afterAll(async () => {
    await server?.stop();
    pki?.remove();
  });

  const configure = (extra: Record<string, string> = {}) =>
    world.configure({ type: 'saml', display_name: 'Hospital SAML', idp_metadata: idp.metadata }, extra);

  const audit = (action: string) => world.audit(action);

  const count = (table: 'users' | 'sessions') => world.count(table);

  /** session/sso/start in a browser: the AuthnRequest as the identity provider reads it. */
  async function begin(jar = new CookieJar(), query: Record<string, string> = {}) {
    const started = await jar.fetch(
      `${base}/api/v3/session/sso/start?${new URLSearchParams({ account_id: demoAccount, ...query }).toString()}`,
    );
    expect(started.status).toBe(303);
    const location = started.headers.get('location')!;
    return { jar, location, request: await idp.readRequest(spMetadata, location) };
  }

  /** The identity provider's auto-submitted form: a cross-site POST, which carries no SameSite=Lax cookie. */
  async function post(samlResponse: string, relayState: string) {
    const answer = await fetch(`${base}/api/v3/session/sso/saml/acs`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: relayState }),
    });
    expect(answer.status).toBe(303);
    return answer.headers.get('location')!;
  }

  /** A whole sign-in: start, the identity provider's answer (changed by `answer`), the ACS, the callback. */
  async function signIn(user: SamlUser, answer: Partial<SamlAnswer> = {}) {
    const { jar, request } = await begin();
    const response = await idp.respond(spMetadata, { user, inResponseTo: request.id, ...answer });
    let landed = await post(response, request.relayState);
    if (landed.startsWith('/api/v3/session/sso/callback')) {
      landed = (await jar.fetch(`${base}${landed}`)).headers.get('location')!;
    }
    const fragment = new URLSearchParams(landed.split('#')[1] ?? '');
    return { landed, sid: fragment.get('sid'), response, request, jar };
  }

  /** A refused answer: the sign-in page names `reason`, the audit keeps it, no session and no user made. */
  async function expectRefused(run: () => Promise<string>, reason: string) {
    const before = { users: await count('users'), sessions: await count('sessions') };
    const landed = await run();
    expect(landed).toBe(`/?sso_error=${reason}`);
    const last = (await audit('SSO_LOGIN_REFUSED')).at(-1)!;
    expect(last.outcome).toBe('FAILURE');
    expect(JSON.parse(last.detail!).reason).toBe(reason);
    expect({ users: await count('users'), sessions: await count('sessions') }).toEqual(before);
    return JSON.parse(last.detail!).why as string;
  }

  it('account/sso/set reads the identity provider metadata; the SP metadata is served; bad input changes nothing', async () => {
    // Nothing to go on yet: the sign-on URL and certificate are missing.
    expect((await configure({ idp_metadata: '' })).body).toMatchObject({ error_type: 'MISSING_FIELDS' });
    const noSp = await server.api.get('session/sso/saml/metadata', { account_id: demoAccount });
    expect(noSp.body.error_type).toBe('NOT_FOUND');

    const saved = await configure();
    expect(saved.body.status).toBe('OK');
    const fingerprint = new X509Certificate(pki.text('server.pem')).fingerprint256;
    expect(saved.body.sso).toMatchObject({
      type: 'saml',
      issuer: idp.entityId,
      entry_point: idp.ssoUrl,
      client_id: `${base}/api/v3/session/sso/saml/metadata?account_id=${demoAccount}`,
      claim_email: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
      idp_certs: [{ sha256: fingerprint }],
    });
    expect(saved.body.saml).toEqual({
      entity_id: `${base}/api/v3/session/sso/saml/metadata?account_id=${demoAccount}`,
      acs_url: `${base}/api/v3/session/sso/saml/acs`,
      metadata_url: `${base}/api/v3/session/sso/saml/metadata?account_id=${demoAccount}`,
    });
    const metadata = await fetch(saved.body.saml.metadata_url);
    expect(metadata.headers.get('content-type')).toMatch(/samlmetadata\+xml/);
    spMetadata = await metadata.text();
    expect(spMetadata).toContain(`entityID="${saved.body.saml.entity_id.replace(/&/g, '&amp;')}"`);
    expect(spMetadata).toContain(`Location="${base}/api/v3/session/sso/saml/acs"`);
    expect(spMetadata).toContain('WantAssertionsSigned="true"');

    for (const [field, value, subtype] of [
      ['idp_metadata', 'not xml at all', 'idp_metadata'],
      ['idp_metadata', `<!DOCTYPE x [<!ENTITY a "aaaa">]>${idp.metadata}`, 'idp_metadata'],
      [
        'idp_metadata',
        '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"/>',
        'idp_metadata',
      ],
      ['idp_cert', 'not a certificate', 'idp_cert'],
      ['entry_point', 'http://idp.example.org/sso', 'entry_point'],
      ['client_id', 'two words', 'client_id'],
      ['type', 'ldap', 'type'],
    ]) {
      const refused = await configure({ [field!]: value! });
      expect(refused.body, `${field}=${value!.slice(0, 40)}`).toMatchObject({
        status: 'ERROR',
        error_type: 'INVALID_FIELD',
        error_subtype: subtype,
      });
    }
    expect(
      (await server.api.call('account/sso/get', { account_id: demoAccount }, admin)).body.sso,
    ).toMatchObject({
      type: 'saml',
      entry_point: idp.ssoUrl,
      idp_certs: [{ sha256: fingerprint }],
    });
    // Another account's admin neither reads nor sets it, nor learns it exists.
    const partner = await server.api.login('partner@demo.local');
    const other = await server.api.call(
      'account/sso/set',
      { account_id: demoAccount, type: 'saml', display_name: 'x', idp_metadata: idp.metadata },
      partner,
    );
    expect(other.body.error_type).toBe('NOT_FOUND');
  });

  it('sends the AuthnRequest for our ACS; the POST needs no cookie, the onward GET in another browser is refused', async () => {
    const { location, request } = await begin(undefined, { return_to: '/group/list?x=1' });
    expect(location.startsWith(`${idp.ssoUrl}?`)).toBe(true);
    expect(request.acsUrl).toBe(`${base}/api/v3/session/sso/saml/acs`);
    expect(request.issuer).toBe(`${base}/api/v3/session/sso/saml/metadata?account_id=${demoAccount}`);
    const response = await idp.respond(spMetadata, { user: CLINICIAN, inResponseTo: request.id });
    const onward = await post(response, request.relayState);
    expect(onward).toBe(`/api/v3/session/sso/callback?state=${encodeURIComponent(request.relayState)}`);
    // The onward GET in another browser (no flow cookie) is refused and leaves this one able to finish.
    expect((await fetch(`${base}${onward}`, { redirect: 'manual' })).headers.get('location')).toBe(
      '/?sso_error=state',
    );
  });

  it('signs a member in through the identity provider: names refreshed, the same session as a password, audited', async () => {
    const { jar, request } = await begin(undefined, { return_to: '/group/list?x=1' });
    const response = await idp.respond(spMetadata, { user: CLINICIAN, inResponseTo: request.id });
    const onward = await post(response, request.relayState);
    const landed = (await jar.fetch(`${base}${onward}`)).headers.get('location')!;
    expect(landed.startsWith('/sso#')).toBe(true);
    const fragment = new URLSearchParams(landed.split('#')[1]);
    expect(fragment.get('to')).toBe('/group/list?x=1');
    const sid = fragment.get('sid')!;
    expect((await server.api.call('session/user', {}, sid)).body).toMatchObject({
      email: 'clinician@demo.local',
      first: 'Claire',
      last: 'Samled',
    });
    expect((await server.api.call('session/ttl', {}, sid)).body.ttl).toBeGreaterThan(0);
    expect(JSON.parse((await audit('SSO_LOGIN')).at(-1)!.detail!)).toMatchObject({
      provider: 'Hospital SAML',
      type: 'saml',
      issuer: idp.entityId,
      subject: 'nameid:clinician-1',
    });
    // Sign-out ends the local session (no provider logout with SAML).
    expect((await server.api.call('session/logout', {}, sid)).body.logout_url).toBeUndefined();
    expect((await server.api.call('session/user', {}, sid)).status).toBe(401);
    // Without a return path it lands on the inbox.
    expect(new URLSearchParams((await signIn(CLINICIAN)).landed.split('#')[1]).get('to')).toBe('/group/list');
  });

  it('without JIT an unknown person is refused; with it they are created with the default role, and the groups attribute maps roles and groups', async () => {
    const newcomer: SamlUser = {
      nameId: 'newcomer-1',
      email: 'samlnew@demo.local',
      first: 'Sam',
      last: 'New',
      groups: ['radiology', 'staff'],
    };
    expect((await signIn(newcomer)).landed).toBe('/?sso_error=no_account');
    expect(await server.ctx.repos.users.findByEmail('samlnew@demo.local')).toBeUndefined();
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
    const { sid } = await signIn(newcomer);
    const user = (await server.ctx.repos.users.findByEmail('samlnew@demo.local'))!;
    expect(user).toMatchObject({ first_name: 'Sam', last_name: 'New', home_account_id: demoAccount });
    expect((await server.api.call('session/user', {}, sid!)).body.email).toBe('samlnew@demo.local');
    expect((await audit('SSO_JIT_CREATE')).at(-1)).toMatchObject({
      user_id: user.uuid,
      account_id: demoAccount,
    });
    const member = await world.membership(user.uuid);
    expect(member.role_id).toBe(radiologist);
    const inGroup = await world.groupsOf(user.uuid);
    expect(inGroup).toMatchObject([{ group_id: emergency, role_id: radiologist }]);
    // The directory moves them: the next sign-in follows the attribute, the group goes.
    await signIn({ ...newcomer, groups: ['referring'] });
    const change = JSON.parse((await audit('SSO_ROLE_CHANGE')).at(-1)!.detail!);
    expect(change.account_role).toEqual({ from: radiologist, to: referring });
    expect(change.groups).toEqual([{ group_id: emergency, from: radiologist, to: null }]);
    expect((await configure({ jit: '0', claim_roles: '', role_map: '[]' })).body.status).toBe('OK');
  });

  it('required SSO refuses members their password, except the break-glass admin; SAML still signs them in', async () => {
    expect((await configure({ require_sso: '1', break_glass_email: 'admin@demo.local' })).body.status).toBe(
      'OK',
    );
    const refused = await server.api.call('session/login', {
      login: 'clinician@demo.local',
      password: DEMO_PASSWORD,
    });
    expect(refused.body).toMatchObject({
      error_type: 'SSO_REQUIRED',
      error_data: { account_id: demoAccount, provider: 'Hospital SAML' },
    });
    expect(
      (await server.api.call('session/login', { login: 'admin@demo.local', password: DEMO_PASSWORD })).body
        .status,
    ).toBe('OK');
    expect((await signIn(CLINICIAN)).sid).toBeTruthy();
    expect((await configure({ require_sso: '0' })).body.status).toBe('OK');
  });

  /** A right sign-in's AuthnRequest and response, the response changed by `change` before the POST. */
  async function refusedAnswer(reason: string, answer: Partial<SamlAnswer>, change = (xml: string) => xml) {
    const { request } = await begin();
    const response = await idp.respond(spMetadata, { user: CLINICIAN, inResponseTo: request.id, ...answer });
    return expectRefused(() => post(encode(change(decode(response))), request.relayState), reason);
  }

  it('refuses an unsigned assertion: inside a signed response, or nothing signed at all', async () => {
    expect(await refusedAnswer('token', { sign: 'response' })).toMatch(/Invalid signature/);
    expect(await refusedAnswer('token', { sign: 'none' })).toMatch(/Invalid signature/);
  });

  it('refuses an assertion signed by another key than the identity provider’s', async () => {
    expect(await refusedAnswer('token', { foreignKey: true })).toMatch(/signature/i);
  });

  it('refuses a tampered assertion (a value changed after signing)', async () => {
    const why = await refusedAnswer('token', {}, (xml) => {
      expect(xml).toContain('>clinician@demo.local<');
      return xml.replace('>clinician@demo.local<', '>admin@demo.local<');
    });
    expect(why).toMatch(/signature/i);
  });

  it('refuses signature wrapping: an unsigned assertion beside the signed one, or wrapped around it', async () => {
    const evil = (signed: string) =>
      signed
        .replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/, '')
        .replace(/ID="_a[0-9a-f]+"/, 'ID="_evil"')
        .replace('>clinician@demo.local<', '>admin@demo.local<');
    const assertionOf = (xml: string) => xml.match(/<saml:Assertion[\s\S]*<\/saml:Assertion>/)![0];
    // Beside: two assertions in the response.
    expect(
      await refusedAnswer('token', {}, (xml) => {
        const signed = assertionOf(xml);
        return xml.replace(signed, evil(signed) + signed);
      }),
    ).toMatch(/multiple assertions/);
    // Around: the signed assertion hidden inside the evil one, which is the response's only assertion.
    expect(
      await refusedAnswer('token', {}, (xml) => {
        const signed = assertionOf(xml);
        const wrapper = evil(signed).replace(
          '</saml:Subject>',
          `</saml:Subject><saml:Advice>${signed}</saml:Advice>`,
        );
        return xml.replace(signed, wrapper);
      }),
    ).toMatch(/signature/i);
  });

  it('refuses an assertion for another audience', async () => {
    expect(await refusedAnswer('token', { audience: 'https://another-sp.example/saml' })).toMatch(
      /audience/i,
    );
  });

  it('refuses an expired assertion (beyond the clock skew) and one for another Recipient', async () => {
    const issued = new Date(Date.now() - 8 * 60_000);
    expect(
      await refusedAnswer('token', { issueInstant: issued, notOnOrAfter: new Date(Date.now() - 2 * 60_000) }),
    ).toMatch(/expired|subject confirmation|NotOnOrAfter/i);
    expect(await refusedAnswer('token', { recipient: 'https://evil.example/acs' })).toMatch(
      /Recipient|confirmation/,
    );
  });

  it('refuses an answer to another AuthnRequest (InResponseTo)', async () => {
    // Another request of the same browser, and one made up.
    const other = await begin();
    expect(await refusedAnswer('token', { inResponseTo: other.request.id })).toMatch(/InResponseTo/);
    expect(await refusedAnswer('token', { inResponseTo: '_made-up' })).toMatch(/InResponseTo/);
  });

  it('refuses a replayed assertion, on this sign-in and after it', async () => {
    const { jar, request } = await begin();
    const response = await idp.respond(spMetadata, { user: CLINICIAN, inResponseTo: request.id });
    const onward = await post(response, request.relayState);
    expect(onward.startsWith('/api/v3/session/sso/callback')).toBe(true);
    // The same response again, before the browser came back: its assertion ID was seen.
    expect(await expectRefused(() => post(response, request.relayState), 'replay')).toMatch(/seen before/);
    // The first still signs in, once.
    const landed = (await jar.fetch(`${base}${onward}`)).headers.get('location')!;
    expect(landed.startsWith('/sso#sid=')).toBe(true);
    await expectRefused(() => post(response, request.relayState), 'state');
    // Remembered in the database (every node sees it) until it expires.
    const kept = await server.ctx.db.kysely.selectFrom('saml_assertions').selectAll().execute();
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.every((r) => Number(r.expires) > Date.now())).toBe(true);
  });

  it('refuses an oversize SAMLResponse before parsing it', async () => {
    const { request } = await begin();
    const huge = Buffer.alloc(300 * 1024, '<').toString('base64');
    expect(await expectRefused(() => post(huge, request.relayState), 'token')).toMatch(/over 262144 bytes/);
    // Without a known RelayState nothing is looked at.
    expect(await expectRefused(() => post(huge, 'made-up'), 'state')).toMatch(/RelayState/);
  });

  it('bounds the sign-ins left open: per client address, and in all', async () => {
    const flows = () =>
      server.ctx.db.kysely
        .selectFrom('sso_flows')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n));
    const startFrom = async (address: string) =>
      (
        await fetch(`${base}/api/v3/session/sso/start?account_id=${demoAccount}`, {
          redirect: 'manual',
          headers: { 'x-forwarded-for': address },
        })
      ).headers.get('location')!;
    await server.ctx.db.kysely.deleteFrom('sso_flows').execute();
    for (let i = 0; i < 30; i++)
      expect(await startFrom('10.9.0.1')).toMatch(/^https:\/\/idp\.test\.example\//);
    expect(await startFrom('10.9.0.1')).toBe('/?sso_error=rate_limited');
    expect(await flows()).toBe(30);
    // Another address is not held back by the first.
    expect(await startFrom('10.9.0.2')).toMatch(/^https:\/\/idp\.test\.example\//);
    // All addresses together: 10,000 open sign-ins, then none more from anywhere.
    const expires = Date.now() + 5 * 60_000;
    for (let batch = 0; batch < 20; batch++) {
      await server.ctx.db.kysely
        .insertInto('sso_flows')
        .values(
          Array.from({ length: 500 }, (_, i) => ({
            state_hash: `filler-${batch}-${i}`,
            account_id: demoAccount,
            browser_hash: 'x',
            nonce: '',
            code_verifier: '',
            return_to: '/',
            expires,
            request_id: null,
            asserted: null,
            ip: `10.10.${batch}.${i % 250}`,
          })),
        )
        .execute();
    }
    expect(await startFrom('10.9.0.3')).toBe('/?sso_error=rate_limited');
    await server.ctx.db.kysely.deleteFrom('sso_flows').where('state_hash', 'like', 'filler-%').execute();
    expect(await startFrom('10.9.0.3')).toMatch(/^https:\/\/idp\.test\.example\//);
  });
});
