import { z } from 'zod';
import { MAX_EMAIL_LENGTH } from './limits.js';
import { flagParam, optionalText, reportInvalid, reportMissing, requiredText } from './api-params.js';

/**
 * Single sign-on with OpenID Connect (decision 0066) and SAML 2.0 (decision 0070): an account's
 * provider (account/sso/get|set), the sign-in page's look-up (session/sso/lookup) and the redirect
 * flow (session/sso/start, the provider's answer at session/sso/callback; a SAML identity
 * provider posts to session/sso/saml/acs first, and reads the service provider's metadata at
 * session/sso/saml/metadata).
 */

export const SSO_TYPES = ['oidc', 'saml'] as const;
export type SsoType = (typeof SSO_TYPES)[number];

/** Bounds of an account's provider settings. */
export const SSO_LIMITS = {
  url: 512,
  text: 256,
  claim: 128,
  roleMapEntries: 50,
  domains: 20,
  /** A return path inside the app (session/sso/start `return_to`). */
  returnTo: 512,
  /** An identity provider's SAML metadata document, as pasted by an admin. */
  samlMetadata: 256 * 1024,
  /** The identity provider's signing certificates in PEM (a few, for a key rollover). */
  samlCert: 32 * 1024,
  /** The most signing certificates kept for one identity provider. */
  samlCerts: 4,
  /** The SAMLResponse a browser posts to the ACS, base64 as posted (decision 0070). */
  samlResponse: 256 * 1024,
} as const;

/** Where a sign-in through a provider lands when it names no return path. */
export const SSO_DEFAULT_RETURN = '/group/list';

/**
 * Whether `path` is a path of this site the sign-in may return to: one slash then a path, never
 * `//host` or `/\host` (which browsers read as another site), no scheme, no control characters.
 */
export function isSameOriginPath(path: string): boolean {
  if (path.length > SSO_LIMITS.returnTo || !path.startsWith('/')) return false;
  if (path.startsWith('//') || path.startsWith('/\\')) return false;
  // eslint-disable-next-line no-control-regex
  return !/[\u0000-\u001f\u007f\\]/.test(path);
}

const bounded = (max: number) => requiredText().pipe(z.string().max(max, `at most ${max} characters`));
const optionalBounded = (max: number) =>
  optionalText().pipe(z.string().max(max, `at most ${max} characters`).optional());

/**
 * An https URL without credentials or fragment (and, unless `query`, without a query). Plain http
 * only on this machine (the demo's provider, the tests'): anywhere else the provider's answers
 * would cross the network unprotected.
 */
function isProviderUrl(raw: string, query = false): boolean {
  try {
    const url = new URL(raw);
    const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
    const scheme = url.protocol === 'https:' || (url.protocol === 'http:' && local);
    return scheme && !url.username && !url.password && (query || !url.search) && !url.hash;
  } catch {
    return false;
  }
}
const URL_REFUSAL = 'must be an https URL (http only on localhost)';

/** A claim name as providers name them (letters, digits, `_ - . : /`). */
const optionalClaimName = () =>
  optionalBounded(SSO_LIMITS.claim).refine(
    (v) => v === undefined || /^[A-Za-z0-9_.:/-]+$/.test(v),
    'must be a claim name',
  );

/** One value of the role claim and what it gives: an account role, or that role in one group. */
export const ssoRoleMapEntry = z.object({
  value: z.string().trim().min(1).max(SSO_LIMITS.text),
  role_id: z.string().trim().min(1).max(64),
  group_id: z.string().trim().min(1).max(64).optional(),
});
export type SsoRoleMapEntry = z.infer<typeof ssoRoleMapEntry>;

/** A JSON array of role map entries, bounded. */
const roleMapParam = () =>
  z
    .string()
    .optional()
    .transform((raw, ctx): SsoRoleMapEntry[] | undefined => {
      if (raw === undefined || raw.trim() === '') return undefined;
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        ctx.issues.push({ code: 'custom', message: 'must be a JSON array', input: raw });
        return z.NEVER;
      }
      const list = z.array(ssoRoleMapEntry).max(SSO_LIMITS.roleMapEntries).safeParse(parsed);
      if (!list.success) {
        const why = `must be at most ${SSO_LIMITS.roleMapEntries} entries of {value, role_id, group_id?}`;
        ctx.issues.push({ code: 'custom', message: why, input: raw });
        return z.NEVER;
      }
      return list.data;
    });

/** Comma-separated e-mail domains (`hospital.org`), bounded. */
const domainsParam = () =>
  z
    .string()
    .optional()
    .transform((raw, ctx): string[] | undefined => {
      if (raw === undefined) return undefined;
      const list = raw
        .split(',')
        .map((d) => d.trim().toLowerCase())
        .filter(Boolean);
      const bad = list.find((d) => d.length > 253 || !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(d));
      if (bad !== undefined || list.length > SSO_LIMITS.domains) {
        const why = `must be at most ${SSO_LIMITS.domains} domains such as hospital.org`;
        ctx.issues.push({ code: 'custom', message: why, input: raw });
        return z.NEVER;
      }
      return [...new Set(list)];
    });

/** account/sso/get: the provider of an account. */
export const accountSsoGetRequest = z.object({ account_id: requiredText() });

/**
 * account/sso/set: the account's provider, whole (an absent `client_secret` keeps the one stored,
 * an empty `client_secret_clear=1` removes it).
 * - `oidc`: `issuer` (https) and `client_id` required; `scopes` must hold `openid`.
 * - `saml`: `idp_metadata` (the identity provider's metadata XML), or `entry_point` and `idp_cert`
 *   (PEM); `issuer` is then the identity provider's entity ID (checked against each assertion's
 *   Issuer when known) and `client_id` this service's entity ID (default: its metadata URL). The
 *   `claim_*` fields name SAML attributes.
 */
export const accountSsoSetRequest = z
  .object({
    account_id: requiredText(),
    type: requiredText().pipe(z.enum(SSO_TYPES, { error: 'must be oidc or saml' })),
    enabled: flagParam(),
    display_name: bounded(SSO_LIMITS.text),
    issuer: optionalBounded(SSO_LIMITS.url),
    client_id: optionalBounded(SSO_LIMITS.url),
    client_secret: optionalBounded(SSO_LIMITS.url),
    client_secret_clear: flagParam(),
    scopes: optionalBounded(SSO_LIMITS.text).refine(
      (v) => v === undefined || v.split(/\s+/).includes('openid'),
      'must include openid',
    ),
    claim_email: optionalClaimName(),
    claim_first: optionalClaimName(),
    claim_last: optionalClaimName(),
    claim_roles: optionalClaimName(),
    role_map: roleMapParam(),
    domains: domainsParam(),
    jit: flagParam(),
    default_role_id: optionalBounded(64),
    require_sso: flagParam(),
    /** The member who may still sign in with a password when SSO is required (an admin of the account). */
    break_glass_email: optionalBounded(MAX_EMAIL_LENGTH),
    /** SAML: the identity provider's metadata XML (its entity ID, sign-on URL and certificates). */
    idp_metadata: optionalBounded(SSO_LIMITS.samlMetadata),
    /** SAML without metadata: the identity provider's sign-on URL (HTTP-Redirect binding). */
    entry_point: optionalBounded(SSO_LIMITS.url).refine(
      (v) => v === undefined || isProviderUrl(v, true),
      URL_REFUSAL,
    ),
    /** SAML without metadata: the identity provider's signing certificate(s), PEM. */
    idp_cert: optionalBounded(SSO_LIMITS.samlCert),
  })
  .superRefine((input, ctx) => {
    if (input.type === 'oidc') {
      const missing = (['issuer', 'client_id'] as const).filter((k) => !input[k]);
      if (missing.length) return void reportMissing(ctx, ...missing);
      if (!isProviderUrl(input.issuer!)) return void reportInvalid(ctx, 'issuer', URL_REFUSAL);
      return;
    }
    if (!input.idp_metadata) {
      const missing = (['entry_point', 'idp_cert'] as const).filter((k) => !input[k]);
      if (missing.length) return void reportMissing(ctx, ...missing);
    }
    if (input.issuer && /\s/.test(input.issuer)) reportInvalid(ctx, 'issuer', 'must be an entity ID');
    if (input.client_id && /\s/.test(input.client_id))
      reportInvalid(ctx, 'client_id', 'must be an entity ID');
  });

/** An account's provider as its admins read it: the secret only as whether one is stored. */
export interface AccountSso {
  account_id: string;
  type: SsoType;
  enabled: 0 | 1;
  display_name: string;
  issuer: string;
  client_id: string;
  client_secret_set: 0 | 1;
  scopes: string;
  claim_email: string;
  claim_first: string;
  claim_last: string;
  claim_roles: string | null;
  role_map: SsoRoleMapEntry[];
  domains: string[];
  jit: 0 | 1;
  default_role_id: string | null;
  require_sso: 0 | 1;
  break_glass_email: string | null;
  /** What the provider's admin registers as the redirect URI. */
  redirect_uri: string;
  /** SAML: the identity provider's sign-on URL, or null (OIDC). */
  entry_point: string | null;
  /** SAML: the identity provider's signing certificates as the admin checks them. */
  idp_certs: SamlCertificate[];
}

/** An identity provider's signing certificate, as its admin compares it with the provider's. */
export interface SamlCertificate {
  subject: string;
  /** ISO 8601. */
  not_after: string;
  /** SHA-256 of the DER, hex pairs separated by colons (as Entra ID and ADFS show it). */
  sha256: string;
}

/** What the SAML identity provider's admin types in (also before a provider is set). */
export interface SamlServiceProvider {
  /** This service's entity ID (Identifier, Audience URI) at the identity provider. */
  entity_id: string;
  /** The Assertion Consumer Service URL (Reply URL), HTTP-POST binding. */
  acs_url: string;
  /** The service provider's metadata, for identity providers that import it. */
  metadata_url: string;
}

export interface AccountSsoAnswer {
  status: 'OK';
  /** null when the account has no provider yet. */
  sso: AccountSso | null;
  /** The redirect URI to register at the provider (also when none is set yet). */
  redirect_uri: string;
  /** What to register at a SAML identity provider (also when none is set yet). */
  saml: SamlServiceProvider;
}

/** session/sso/lookup: whether sign-in should ask for the e-mail first, and whether this one goes to a provider. */
export const ssoLookupRequest = z.object({
  email: optionalBounded(MAX_EMAIL_LENGTH),
  account_id: optionalBounded(64),
});

export interface SsoLookupAnswer {
  status: 'OK';
  /** 1 when some account signs in through a provider (the page asks for the e-mail first). */
  any: 0 | 1;
  /** With `email` or `account_id`: the provider that address or account signs in with, else null. */
  provider: { account_id: string; display_name: string; required: 0 | 1 } | null;
}

/** session/sso/start: the account (or an e-mail whose domain or account names it) and where to return. */
export const ssoStartRequest = z.object({
  account_id: optionalBounded(64),
  email: optionalBounded(MAX_EMAIL_LENGTH),
  return_to: optionalBounded(SSO_LIMITS.returnTo).refine(
    (v) => v === undefined || isSameOriginPath(v),
    'must be a path of this site',
  ),
});

/** session/sso/callback: the provider's authorization response (checked by the server, never trusted). */
export const ssoCallbackRequest = z.object({
  state: z.string().max(1024).optional(),
  code: z.string().max(4096).optional(),
  error: z.string().max(256).optional(),
});

/**
 * session/sso/saml/acs: the identity provider's POST (HTTP-POST binding). RelayState names the
 * sign-in it answers. The server refuses (and audits) a SAMLResponse over `SSO_LIMITS.samlResponse`
 * before anything parses it; the route's body limit stops anything much larger before that.
 */
export const samlAcsRequest = z.object({
  SAMLResponse: z.string().optional(),
  RelayState: z.string().max(1024).optional(),
});

/** session/sso/saml/metadata: the service provider's metadata of one account. */
export const samlMetadataRequest = z.object({ account_id: requiredText().pipe(z.string().max(64)) });

/** Why a sign-in through a provider was refused (the sign-in page says it; the audit keeps it). */
export const SSO_REFUSALS = [
  'state',
  'provider_error',
  'token',
  'claims',
  'no_account',
  'disabled',
  'unavailable',
  /** SAML: the assertion was seen before. */
  'replay',
  /** Too many sign-ins started from one address, or in all (session/sso/start). */
  'rate_limited',
] as const;
export type SsoRefusal = (typeof SSO_REFUSALS)[number];
