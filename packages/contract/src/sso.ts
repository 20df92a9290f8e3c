import { z } from 'zod';
import { MAX_EMAIL_LENGTH } from './limits.js';
import { flagParam, optionalText, requiredText } from './api-params.js';

/**
 * Single sign-on with OpenID Connect (decision 0066): an account's provider (account/sso/get|set),
 * the sign-in page's look-up (session/sso/lookup) and the redirect flow (session/sso/start, the
 * provider's answer at session/sso/callback).
 */

export const SSO_TYPES = ['oidc'] as const;
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

const httpUrl = () =>
  bounded(SSO_LIMITS.url).refine((raw) => {
    try {
      const url = new URL(raw);
      // Plain http only on this machine (the demo's provider, the tests'): anywhere else the
      // provider's answers would cross the network unprotected.
      const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
      const scheme = url.protocol === 'https:' || (url.protocol === 'http:' && local);
      return scheme && !url.username && !url.password && !url.search && !url.hash;
    } catch {
      return false;
    }
  }, 'must be an https URL (http only on localhost)');

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
 * an empty `client_secret_clear=1` removes it). `scopes` must hold `openid`.
 */
export const accountSsoSetRequest = z.object({
  account_id: requiredText(),
  type: requiredText().pipe(z.enum(SSO_TYPES, { error: 'must be oidc' })),
  enabled: flagParam(),
  display_name: bounded(SSO_LIMITS.text),
  issuer: httpUrl(),
  client_id: bounded(SSO_LIMITS.text),
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
}

export interface AccountSsoAnswer {
  status: 'OK';
  /** null when the account has no provider yet. */
  sso: AccountSso | null;
  /** The redirect URI to register at the provider (also when none is set yet). */
  redirect_uri: string;
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

/** Why a sign-in through a provider was refused (the sign-in page says it; the audit keeps it). */
export const SSO_REFUSALS = [
  'state',
  'provider_error',
  'token',
  'claims',
  'no_account',
  'disabled',
  'unavailable',
] as const;
export type SsoRefusal = (typeof SSO_REFUSALS)[number];
