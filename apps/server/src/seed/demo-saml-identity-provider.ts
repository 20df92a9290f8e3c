import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { IdpUser } from './demo-identity-provider.js';
import { formOf, loginPage, providerPage, samePassword, send } from './demo-identity-provider-pages.js';
import { selfSignedCertificate } from './self-signed-certificate.js';

/**
 * samlify, loaded untyped when a SAML provider starts and given the members used here: its
 * declarations pull the browser's DOM types into the server program (as the tests' identity
 * provider notes), and it is a development dependency, absent from a production install
 * (decision 0072): nothing of the server's own start loads it.
 */
interface SamlEntity {
  entityMeta: { getEntityID(): string };
}
interface SamlIdentityProvider {
  getMetadata(): string;
  parseLoginRequest(
    sp: SamlEntity,
    binding: 'redirect',
    request: { query: Record<string, string> },
  ): Promise<{ extract: { issuer?: unknown; request?: { id?: unknown } } }>;
  createLoginResponse(
    sp: SamlEntity,
    request: { extract: { request: { id: string } } },
    binding: 'post',
    user: { email: string },
    template: () => { id: string; context: string },
  ): Promise<{ context: string }>;
}
interface Samlify {
  setSchemaValidator(validator: unknown): void;
  IdentityProvider(options: object): SamlIdentityProvider;
  ServiceProvider(options: object): SamlEntity;
  SamlLib: { defaultLoginResponseTemplate: { context: string } };
}

const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const CLAIMS = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims';
/** How long a person may stay on the provider's page, and how many sign-ins it keeps open at once. */
const PENDING_TTL_MS = 10 * 60_000;
const PENDING_MAX = 1000;
/** An AuthnRequest on the redirect binding is a URL: at most what a browser sends. */
const MAX_REQUEST_URL = 16_384;

/** A service provider this identity provider answers: its entity ID and where its answers go. */
export interface SamlServiceProvider {
  entityId: string;
  acsUrl: string;
  name?: string;
}

export interface LocalSamlIdentityProvider {
  entityId: string;
  /** The sign-on URL (HTTP-Redirect binding). */
  ssoUrl: string;
  /** The federation metadata XML an admin pastes at the service provider. */
  metadata: string;
  /** The signing certificate (PEM) the metadata holds. */
  certificate: string;
  users: Map<string, IdpUser>;
  stop(): Promise<void>;
}

/** A sign-in waiting on the provider's page. */
interface Pending {
  sp: SamlServiceProvider;
  requestId: string;
  relayState: string;
  expires: number;
}

const xmlEscape = (v: string) =>
  v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function attributeStatement(user: IdpUser): string {
  const attribute = (name: string, values: string[]) =>
    `<saml:Attribute Name="${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri">${values
      .map((v) => `<saml:AttributeValue xsi:type="xs:string">${xmlEscape(v)}</saml:AttributeValue>`)
      .join('')}</saml:Attribute>`;
  return `<saml:AttributeStatement>${[
    attribute(`${CLAIMS}/emailaddress`, [user.email]),
    attribute(`${CLAIMS}/givenname`, [user.given_name]),
    attribute(`${CLAIMS}/surname`, [user.family_name]),
    user.groups?.length ? attribute('groups', user.groups) : '',
  ].join('')}</saml:AttributeStatement>`;
}

/**
 * The page that carries the answer to the service provider (HTTP-POST binding): a form posted by a
 * script the page's policy allows by nonce alone, and a button when scripts are off.
 */
function postPage(res: ServerResponse, sp: SamlServiceProvider, fields: Record<string, string>): void {
  const nonce = randomBytes(16).toString('base64');
  const inputs = Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${k}" value="${xmlEscape(v)}">`)
    .join('');
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy':
      `default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'nonce-${nonce}'; ` +
      `form-action ${new URL(sp.acsUrl).origin}`,
  });
  res.end(
    providerPage(
      'Signing you in – identity provider',
      `<h1>Signing you in…</h1><p class="who">Returning to ${xmlEscape(sp.name ?? 'the application')}.</p>
<form id="answer" method="post" action="${xmlEscape(sp.acsUrl)}">${inputs}<noscript><button type="submit">Continue</button></noscript></form>
<script nonce="${nonce}">document.getElementById('answer').submit();</script>`,
    ),
  );
}

/** samlify and its schema validator (xmllint compiled to JavaScript), or why they are missing. */
function loadSamlify(): Samlify {
  const load = createRequire(import.meta.url);
  try {
    const samlify = load('samlify') as Samlify;
    samlify.setSchemaValidator(load('@authenio/samlify-node-xmllint'));
    return samlify;
  } catch (error) {
    throw new Error(
      'the local SAML identity provider needs samlify, a development dependency: run npm install ' +
        'in a checkout (a production install has none)',
      { cause: error },
    );
  }
}

const page = (res: ServerResponse, status: number, title: string, text: string) =>
  send(res, status, providerPage(title, `<h1>${title}</h1><p>${text}</p>`));

/**
 * A real SAML 2.0 identity provider (samlify as the IdP side) on 127.0.0.1, for the browser tests
 * and for `DEMO_SSO=saml`: the AuthnRequest on the HTTP-Redirect binding, from a service provider it
 * knows (its ACS registered here, as at a real IdP: an answer never goes anywhere a request names);
 * its own sign-in page, which checks the password in constant time and refuses a login it does not
 * know alike; the signed assertion (RSA-SHA256, a key and self-signed certificate made at start)
 * posted back on the HTTP-POST binding; and Cancel, answered as a real IdP does, with a Response of
 * status Responder/AuthnFailed and no assertion. Never for production: everything is kept in memory
 * and its users' passwords in plain text.
 */
export async function startLocalSamlIdentityProvider(options: {
  port?: number;
  serviceProviders: SamlServiceProvider[];
  users: IdpUser[];
}): Promise<LocalSamlIdentityProvider> {
  const samlify = loadSamlify();
  const users = new Map(options.users.map((u) => [u.login, u]));
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const certificate = selfSignedCertificate(privateKey, 'Local SAML identity provider', 30);
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entityId = `${base}/saml/metadata`;
  const ssoUrl = `${base}/saml/sso`;
  const idp = samlify.IdentityProvider({
    entityID: entityId,
    signingCert: certificate,
    privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }),
    singleSignOnService: [{ Binding: REDIRECT, Location: ssoUrl }],
    nameIDFormat: [EMAIL_FORMAT],
    wantAuthnRequestsSigned: false,
    requestSignatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  });
  // Each known service provider as samlify's entity, asking for signed assertions (samlify then signs them).
  const known = new Map(
    options.serviceProviders.map((sp) => [
      sp.entityId,
      {
        sp,
        entity: samlify.ServiceProvider({
          entityID: sp.entityId,
          assertionConsumerService: [{ Binding: POST, Location: sp.acsUrl }],
          wantAssertionsSigned: true,
        }),
      },
    ]),
  );
  const pending = new Map<string, Pending>();

  /** The AuthnRequest of the sign-on redirect: from a known service provider, kept until answered. */
  async function signOn(req: IncomingMessage, res: ServerResponse, url: URL) {
    const query = Object.fromEntries(url.searchParams);
    const first = known.values().next().value;
    if (!query['SAMLRequest'] || !first || (req.url ?? '').length > MAX_REQUEST_URL) {
      return page(res, 400, 'Sign-in error', 'No sign-in request. Start again from the application.');
    }
    let issuer: unknown;
    let requestId: unknown;
    try {
      // Unsigned requests: the entity passed only tells samlify whose signature it would check.
      const parsed = await idp.parseLoginRequest(first.entity, 'redirect', { query });
      issuer = parsed.extract.issuer;
      requestId = parsed.extract.request?.id;
    } catch {
      return page(res, 400, 'Sign-in error', 'The sign-in request could not be read.');
    }
    const from = typeof issuer === 'string' ? known.get(issuer) : undefined;
    if (!from || typeof requestId !== 'string') {
      return page(res, 400, 'Sign-in error', 'This application is not known to this identity provider.');
    }
    const now = Date.now();
    for (const [uid, p] of pending) if (p.expires <= now) pending.delete(uid);
    if (pending.size >= PENDING_MAX) return page(res, 503, 'Sign-in error', 'Too many sign-ins at once.');
    const uid = randomBytes(16).toString('base64url');
    pending.set(uid, {
      sp: from.sp,
      requestId,
      relayState: (query['RelayState'] ?? '').slice(0, 512),
      expires: now + PENDING_TTL_MS,
    });
    res.writeHead(303, { location: `/interaction/${uid}`, 'cache-control': 'no-store' });
    res.end();
  }

  /** The signed answer for `user`: samlify's response template, filled, the assertion signed. */
  async function signedAnswer(p: Pending, user: IdpUser): Promise<string> {
    const now = new Date();
    const later = new Date(now.getTime() + 5 * 60_000);
    const id = `_${randomBytes(20).toString('hex')}`;
    const values: Record<string, string> = {
      ID: id,
      AssertionID: `_${randomBytes(20).toString('hex')}`,
      Destination: p.sp.acsUrl,
      Audience: p.sp.entityId,
      SubjectRecipient: p.sp.acsUrl,
      Issuer: entityId,
      IssueInstant: now.toISOString(),
      StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
      ConditionsNotBefore: now.toISOString(),
      ConditionsNotOnOrAfter: later.toISOString(),
      SubjectConfirmationDataNotOnOrAfter: later.toISOString(),
      NameIDFormat: EMAIL_FORMAT,
      NameID: user.email,
      InResponseTo: p.requestId,
      AuthnStatement: `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${id}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
      AttributeStatement: attributeStatement(user),
    };
    const raw = new Set(['AuthnStatement', 'AttributeStatement']);
    const xml = samlify.SamlLib.defaultLoginResponseTemplate.context.replace(
      /\{(\w+)\}/g,
      (_, tag: string) => (raw.has(tag) ? (values[tag] ?? '') : xmlEscape(values[tag] ?? '')),
    );
    const made = await idp.createLoginResponse(
      known.get(p.sp.entityId)!.entity,
      { extract: { request: { id: p.requestId } } },
      'post',
      { email: user.email },
      () => ({ id, context: xml }),
    );
    return made.context;
  }

  /** Cancel: a Response with no assertion and a status saying the person was not authenticated. */
  function cancelledAnswer(p: Pending): string {
    const xml =
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
      `ID="_${randomBytes(20).toString('hex')}" Version="2.0" IssueInstant="${new Date().toISOString()}" ` +
      `Destination="${xmlEscape(p.sp.acsUrl)}" InResponseTo="${xmlEscape(p.requestId)}">` +
      `<saml:Issuer>${xmlEscape(entityId)}</saml:Issuer><samlp:Status>` +
      '<samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Responder">' +
      '<samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:AuthnFailed"/></samlp:StatusCode>' +
      '<samlp:StatusMessage>The sign-in was cancelled</samlp:StatusMessage></samlp:Status></samlp:Response>';
    return Buffer.from(xml).toString('base64');
  }

  /** The provider's page for one sign-in: GET shows it, POST …/login checks the password, …/abort cancels. */
  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string, action?: string) {
    const p = pending.get(uid);
    if (!p || p.expires <= Date.now()) {
      return page(res, 400, 'This sign-in has expired', 'Start again from the application.');
    }
    const spName = p.sp.name ?? 'the application';
    if (req.method === 'GET' && !action) return send(res, 200, loginPage(uid, spName));
    if (req.method !== 'POST' || !action) return page(res, 405, 'Sign-in', 'Method not allowed.');
    if (action === '/abort') {
      pending.delete(uid);
      return postPage(res, p.sp, { SAMLResponse: cancelledAnswer(p), RelayState: p.relayState });
    }
    let form: URLSearchParams;
    try {
      form = await formOf(req);
    } catch {
      return page(res, 413, 'Sign-in', 'Request too large.');
    }
    const login = (form.get('login') ?? '').trim().slice(0, 320);
    const user = users.get(login);
    // Compared even for an unknown login, so the answer's time does not say which logins exist.
    const right = samePassword(form.get('password') ?? '', user?.password ?? randomBytes(16).toString('hex'));
    if (!user || !right) return send(res, 200, loginPage(uid, spName, 'Wrong login or password.', login));
    pending.delete(uid);
    return postPage(res, p.sp, { SAMLResponse: await signedAnswer(p, user), RelayState: p.relayState });
  }

  async function serve(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', base);
    if (url.pathname === '/saml/metadata' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/samlmetadata+xml; charset=utf-8' });
      return res.end(idp.getMetadata());
    }
    if (url.pathname === '/saml/sso' && req.method === 'GET') return signOn(req, res, url);
    const match = /^\/interaction\/([\w-]{1,64})(\/login|\/abort)?$/.exec(url.pathname);
    if (match) return interaction(req, res, match[1]!, match[2]);
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204);
      return res.end();
    }
    return page(res, 404, 'Not found', 'Nothing here.');
  }

  server.on('request', (req, res) => {
    // A page of ours that failed answers 500 rather than taking the process down.
    serve(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('identity provider error');
    });
  });
  return {
    entityId,
    ssoUrl,
    metadata: idp.getMetadata(),
    certificate,
    users,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
