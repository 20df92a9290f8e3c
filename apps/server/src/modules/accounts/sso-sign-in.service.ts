import {
  SSO_DEFAULT_RETURN,
  SSO_LIMITS,
  emailSchema,
  type SsoRefusal,
  type SsoRoleMapEntry,
} from '@imaging-inbox/contract';
import * as oidc from 'openid-client';
import { DomainError } from '../../domain/errors.js';
import { auditEvent, sessionEvent, type AuditService } from '../../audit/audit.service.js';
import type { MembershipsRepository } from '../../repositories/memberships.repository.js';
import type { UserRow, UsersRepository } from '../../repositories/users.repository.js';
import { hashToken, newSecretToken, newUuid } from '../../security/tokens.js';
import { DEFAULT_RATE_LIMITS } from './login-throttle.js';
import type { OidcClients } from './oidc-client.js';
import { SamlClients, isIdpStatusRefusal } from './saml-client.js';
import type { SessionService } from './session.service.js';
import type { SsoDirectoryRepository } from './sso-directory.repository.js';
import type { SsoConfigRow, SsoFlowLimits, SsoFlowRow, SsoRepository } from './sso.repository.js';

/** How long a sign-in may stay at the provider before its state is refused. */
export const SSO_FLOW_TTL_MS = 10 * 60_000;
/** How long a provider session's ID token is kept for sign-out (sessions idle out sooner). */
const SSO_SESSION_KEEP_MS = 7 * 24 * 3600_000;
/** What a person made just in time gets as a password: none (they sign in through the provider). */
export const SSO_NO_PASSWORD = '!sso';
/**
 * Sign-ins left open at once (each start keeps a row until it is finished or ten minutes pass):
 * from one address as many as the failed sign-ins one address may make in a window, and in all
 * enough for a large hospital's busiest minutes while bounding what strangers can make us keep.
 */
export const SSO_FLOW_LIMITS: SsoFlowLimits = { perAddress: DEFAULT_RATE_LIMITS.perAddress, global: 10_000 };

export interface SsoSignInDeps {
  sso: SsoRepository;
  directory: SsoDirectoryRepository;
  users: UsersRepository;
  memberships: MembershipsRepository;
  sessions: SessionService;
  clients: OidcClients;
  saml: SamlClients;
  audit: AuditService;
  publicUrl: string;
  flowLimits?: SsoFlowLimits;
  now?: () => number;
}

/** A refusal of the provider's answer, with what the audit keeps of why. */
class Refused extends Error {
  constructor(
    readonly reason: SsoRefusal,
    readonly detail: string,
    readonly accountId: string | null = null,
    readonly userId: string | null = null,
  ) {
    super(detail);
  }
}

/** Where a browser goes next, and the cookie that ties the provider's answer to it. */
export interface SsoRedirect {
  location: string;
  /** Set at start (the browser's flow token), cleared at the callback. */
  browserToken?: string;
  /** The callback signed in. */
  signedIn?: boolean;
}

/**
 * What the library says went wrong, for the audit: the message, the provider's error code, and
 * the claim or check that failed (kept in the error's causes).
 */
function failureOf(error: unknown): string {
  const parts: string[] = [];
  let at: unknown = error;
  for (let depth = 0; depth < 4 && at && typeof at === 'object'; depth++) {
    const e = at as {
      name?: unknown;
      message?: unknown;
      code?: unknown;
      error?: unknown;
      claim?: unknown;
      cause?: unknown;
    };
    if (typeof e.message === 'string')
      parts.push(`${typeof e.name === 'string' ? e.name : 'Error'}: ${e.message}`);
    if (typeof e.error === 'string') parts.push(`error ${e.error}`);
    if (typeof e.code === 'string') parts.push(`code ${e.code}`);
    if (typeof e.claim === 'string') parts.push(`claim ${e.claim}`);
    at = e.cause;
  }
  return parts.join('; ') || String(error);
}

const text = (value: unknown, max = 256): string | null =>
  typeof value === 'string' && value.trim() ? value.trim().slice(0, max) : null;

/**
 * Sign-in through an account's OpenID Connect provider (decision 0066). start: a flow whose state,
 * nonce and PKCE verifier stay on the server (found by the state's hash, used once, ten minutes),
 * tied to the browser by a cookie, then the provider's authorization URL. callback: the flow taken
 * (so a state or code is good once), the provider's answer checked by `OidcClients`, the person
 * found (by their subject, else their e-mail), made just in time when the account allows it, their
 * name and e-mail refreshed and their roles and groups set from the role claim when mapped; then
 * the session a password sign-in makes. Every sign-in, creation, role change and refusal is audited.
 */
export class SsoSignInService {
  private readonly now: () => number;

  constructor(private readonly deps: SsoSignInDeps) {
    this.now = deps.now ?? Date.now;
  }

  private get redirectUri() {
    return `${this.deps.publicUrl}/api/v3/session/sso/callback`;
  }

  /** The provider an account (or an e-mail: its domain, else the accounts of its person) signs in with. */
  async providerFor(by: { accountId?: string; email?: string }): Promise<SsoConfigRow | undefined> {
    if (by.accountId) {
      const row = await this.deps.sso.find(by.accountId);
      return row?.enabled ? row : undefined;
    }
    const email = by.email ? emailSchema.safeParse(by.email) : undefined;
    if (!email?.success) return undefined;
    const address = email.data.toLowerCase();
    const user = await this.deps.users.findByEmail(address);
    const accountIds = user
      ? (await this.deps.memberships.accountMemberships(user.uuid)).map((m) => m.account_id)
      : [];
    const rows = await this.deps.sso.enabledFor(accountIds, address.split('@')[1] ?? null);
    return rows.find((r) => accountIds.includes(r.account_id)) ?? rows[0];
  }

  async lookup(by: { accountId?: string; email?: string }) {
    const any = await this.deps.sso.anyEnabled();
    const row = any && (by.accountId || by.email) ? await this.providerFor(by) : undefined;
    return {
      any: any ? (1 as const) : (0 as const),
      provider: row
        ? {
            account_id: row.account_id,
            display_name: row.display_name,
            required: row.require_sso ? (1 as const) : (0 as const),
          }
        : null,
    };
  }

  /**
   * A new sign-in: its flow kept (bounded per address and in all: RATE_LIMITED), then the
   * provider's URL to go to: OIDC's authorization URL, or SAML's sign-on URL with the AuthnRequest.
   */
  async start(
    by: { accountId?: string; email?: string },
    returnTo: string | undefined,
    ip: string,
  ): Promise<SsoRedirect> {
    const row = await this.providerFor(by);
    if (!row) throw new DomainError('NOT_FOUND', 'sso');
    const saml = row.type === 'saml';
    const checks = {
      state: saml ? newSecretToken() : oidc.randomState(),
      nonce: saml ? '' : oidc.randomNonce(),
      codeVerifier: saml ? '' : oidc.randomPKCECodeVerifier(),
    };
    const requestId = saml ? SamlClients.newRequestId() : null;
    const browserToken = newSecretToken();
    const now = this.now();
    const stateHash = hashToken(checks.state);
    const saved = this.deps.sso.saveFlow(
      {
        state_hash: stateHash,
        account_id: row.account_id,
        browser_hash: hashToken(browserToken),
        nonce: checks.nonce,
        code_verifier: checks.codeVerifier,
        return_to: returnTo ?? SSO_DEFAULT_RETURN,
        expires: now + SSO_FLOW_TTL_MS,
        request_id: requestId,
        asserted: null,
        ip,
      },
      now,
      this.deps.flowLimits ?? SSO_FLOW_LIMITS,
    );
    try {
      await saved;
    } catch (error) {
      // Too many sign-ins left open from this address (or in all): the sign-in page says so.
      if (error instanceof DomainError && error.errorType === 'RATE_LIMITED') {
        return { location: '/?sso_error=rate_limited' };
      }
      throw error;
    }
    let location: string;
    try {
      location = requestId
        ? await this.deps.saml.authorizeUrl(row, requestId, checks.state)
        : await this.deps.clients.authorizationUrl(row, this.redirectUri, checks, by.email);
    } catch (error) {
      // The provider unreachable (or its discovery document wrong): the sign-in page says so.
      await this.deps.sso.deleteFlow(stateHash);
      await this.deps.audit.record(
        sessionEvent({ userId: null, ip }, 'SSO_LOGIN_REFUSED', {
          accountId: row.account_id,
          outcome: 'FAILURE',
          detail: { reason: 'unavailable', why: String(error).slice(0, 300) },
        }),
      );
      return { location: '/?sso_error=unavailable' };
    }
    return { location, browserToken };
  }

  /**
   * A SAML identity provider's POST (decision 0070): the response bounded before anything parses
   * it, its sign-in found by RelayState, every check of `SamlClients`, its assertion ID remembered
   * (a replay is refused), what it said kept on the flow; then the browser goes on to the callback,
   * where the cookie it holds (not sent on this cross-site POST) shows it is the one that started.
   */
  async acs(
    params: { SAMLResponse?: string; RelayState?: string },
    method: string,
    ip: string,
  ): Promise<SsoRedirect> {
    try {
      const state = params.RelayState;
      const flow = state ? await this.deps.sso.findFlow(hashToken(state)) : undefined;
      if (!state || !flow?.request_id) throw new Refused('state', 'unknown or used RelayState');
      const accountId = flow.account_id;
      if (flow.expires <= this.now()) throw new Refused('state', 'expired RelayState', accountId);
      const response = params.SAMLResponse ?? '';
      if (method !== 'POST' || !response) throw new Refused('token', 'no SAMLResponse posted', accountId);
      if (response.length > SSO_LIMITS.samlResponse) {
        throw new Refused('token', `SAMLResponse over ${SSO_LIMITS.samlResponse} bytes`, accountId);
      }
      const row = await this.deps.sso.find(accountId);
      if (!row?.enabled || row.type !== 'saml')
        throw new Refused('disabled', 'provider turned off', accountId);
      let identity;
      try {
        identity = await this.deps.saml.validate(row, response, {
          requestId: flow.request_id,
          started: flow.expires - SSO_FLOW_TTL_MS,
        });
      } catch (error) {
        throw new Refused(
          isIdpStatusRefusal(error) ? 'provider_error' : 'token',
          failureOf(error),
          accountId,
        );
      }
      const now = this.now();
      if (!(await this.deps.sso.rememberAssertion(accountId, identity.assertionId, identity.expires, now))) {
        throw new Refused('replay', `assertion ${identity.assertionId.slice(0, 100)} seen before`, accountId);
      }
      if (!(await this.deps.sso.assertFlow(flow.state_hash, JSON.stringify(identity.claims)))) {
        throw new Refused('state', 'sign-in already answered', accountId);
      }
      return { location: `/api/v3/session/sso/callback?${new URLSearchParams({ state }).toString()}` };
    } catch (error) {
      return this.refuse(error, ip);
    }
  }

  private async refuse(error: unknown, ip: string): Promise<SsoRedirect> {
    const refused =
      error instanceof Refused ? error : new Refused('unavailable', String(error).slice(0, 200));
    await this.deps.audit.record(
      sessionEvent({ userId: refused.userId, ip }, 'SSO_LOGIN_REFUSED', {
        accountId: refused.accountId,
        outcome: 'FAILURE',
        detail: { reason: refused.reason, why: refused.detail.slice(0, 300) },
      }),
    );
    return { location: `/?${new URLSearchParams({ sso_error: refused.reason }).toString()}` };
  }

  /**
   * The provider's answer: a signed-in session and the app's page to land on (the sid in the
   * fragment, which never reaches a server), or the sign-in page naming why it was refused.
   */
  async callback(
    params: { state?: string; code?: string; error?: string },
    query: string,
    browserToken: string | undefined,
    ip: string,
  ): Promise<SsoRedirect> {
    try {
      const { sid, returnTo } = await this.complete(params, query, browserToken, ip);
      const fragment = new URLSearchParams({ sid, to: returnTo });
      return { location: `/sso#${fragment.toString()}`, signedIn: true };
    } catch (error) {
      return this.refuse(error, ip);
    }
  }

  private async complete(
    params: { state?: string; code?: string; error?: string },
    query: string,
    browserToken: string | undefined,
    ip: string,
  ): Promise<{ sid: string; returnTo: string }> {
    if (!params.state) throw new Refused('state', 'no state');
    const flow = await this.deps.sso.takeFlow(hashToken(params.state));
    if (!flow) throw new Refused('state', 'unknown or used state');
    const accountId = flow.account_id;
    if (flow.expires <= this.now()) throw new Refused('state', 'expired state', accountId);
    // The answer must come back to the browser that started the sign-in (no sign-in fixation).
    if (!browserToken || hashToken(browserToken) !== flow.browser_hash) {
      throw new Refused('state', 'another browser', accountId);
    }
    if (params.error) throw new Refused('provider_error', text(params.error, 100) ?? 'error', accountId);
    const row = await this.deps.sso.find(accountId);
    if (!row?.enabled) throw new Refused('disabled', 'provider turned off', accountId);
    const identity = await this.identityOf(row, flow, params.state, query);
    const user = await this.person(row, identity.claims, ip);
    const sid = await this.deps.sessions.open(user, ip);
    const now = this.now();
    // Kept for RP-initiated logout (OIDC); SAML sign-out ends the local session only.
    if (identity.idToken) {
      await this.deps.sso.saveSession(
        hashToken(sid),
        accountId,
        identity.idToken,
        now + SSO_SESSION_KEEP_MS,
        now,
      );
    }
    await this.deps.audit.record(
      sessionEvent({ userId: user.uuid, ip }, 'SSO_LOGIN', {
        accountId,
        detail: {
          provider: row.display_name,
          type: row.type,
          issuer: row.issuer,
          subject: text(identity.claims['sub']),
        },
      }),
    );
    return { sid, returnTo: flow.return_to };
  }

  /**
   * What the provider said of the person: for OIDC the code exchanged and the ID token checked now;
   * for SAML what the ACS kept of the assertion it checked (none: the browser came back before it).
   */
  private async identityOf(
    row: SsoConfigRow,
    flow: SsoFlowRow,
    state: string,
    query: string,
  ): Promise<{ claims: Record<string, unknown>; idToken: string | null }> {
    const accountId = row.account_id;
    if (flow.request_id !== null) {
      if (row.type !== 'saml') throw new Refused('disabled', 'provider changed', accountId);
      if (!flow.asserted) throw new Refused('state', 'no assertion for this sign-in', accountId);
      return { claims: JSON.parse(flow.asserted) as Record<string, unknown>, idToken: null };
    }
    if (row.type !== 'oidc') throw new Refused('disabled', 'provider changed', accountId);
    try {
      return await this.deps.clients.complete(row, new URL(`${this.redirectUri}?${query}`), {
        state,
        nonce: flow.nonce,
        codeVerifier: flow.code_verifier,
      });
    } catch (error) {
      throw new Refused('token', failureOf(error), accountId);
    }
  }

  /** The person the claims name in the account: found, refreshed, or made just in time. */
  private async person(row: SsoConfigRow, claims: Record<string, unknown>, ip: string): Promise<UserRow> {
    const accountId = row.account_id;
    const subject = text(claims['sub'], 255);
    const parsed = emailSchema.safeParse(claims[row.claim_email]);
    if (!subject || !parsed.success) throw new Refused('claims', `no ${row.claim_email} claim`, accountId);
    if (claims['email_verified'] === false) throw new Refused('claims', 'e-mail not verified', accountId);
    const email = parsed.data.toLowerCase();
    const first = text(claims[row.claim_first], 100) ?? '';
    const last = text(claims[row.claim_last], 100) ?? '';
    const { directory, users } = this.deps;
    const linked = await directory.identity(accountId, subject);
    let user = linked ? await users.findByUuid(linked) : await users.findByEmail(email);
    if (!user) {
      if (!row.jit) throw new Refused('no_account', `no member ${email}`, accountId);
      user = await this.createJustInTime(row, email, first, last, ip);
    }
    const member = await directory.member(accountId, user.uuid);
    if (!member || member.invited || member.suspended) {
      throw new Refused('no_account', 'not a member of the account', accountId, user.uuid);
    }
    if (user.status !== 'ACTIVE') throw new Refused('disabled', 'user disabled', accountId, user.uuid);
    if (!linked) await directory.linkIdentity(accountId, subject, user.uuid);
    const taken = user.email !== email ? await users.findByEmail(email) : undefined;
    const nextEmail = taken ? user.email : email;
    if (nextEmail !== user.email || first !== user.first_name || last !== user.last_name) {
      await directory.refreshNames(user.uuid, nextEmail, first || user.first_name, last || user.last_name);
    }
    if (row.claim_roles) await this.mapRoles(row, claims[row.claim_roles], user, member.role, ip);
    return (await users.findByUuid(user.uuid))!;
  }

  private async createJustInTime(row: SsoConfigRow, email: string, first: string, last: string, ip: string) {
    const now = this.now();
    const uuid = newUuid();
    await this.deps.directory.createMember(
      {
        uuid,
        email,
        name: `${first} ${last}`.trim(),
        first_name: first,
        last_name: last,
        password_hash: SSO_NO_PASSWORD,
        password_history: '[]',
        sysadmin: 0,
        support: 0,
        status: 'ACTIVE',
        home_account_id: row.account_id,
        created: now,
      },
      row.account_id,
      row.default_role_id,
    );
    await this.deps.audit.record(
      auditEvent(
        { userId: uuid, ip },
        row.account_id,
        'SSO_JIT_CREATE',
        { type: 'user', id: uuid },
        {
          detail: { email, provider: row.display_name, role_id: row.default_role_id },
        },
      ),
    );
    return (await this.deps.users.findByUuid(uuid))!;
  }

  /**
   * Roles and groups from the role claim: the first value mapped to an account role gives it (the
   * account's default role when none is), each value mapped to a group gives that role there, and
   * the user leaves the mapped groups no value names. An account admin's own role is the account's.
   */
  private async mapRoles(row: SsoConfigRow, claim: unknown, user: UserRow, role: string, ip: string) {
    const values = new Set(
      (Array.isArray(claim) ? claim : typeof claim === 'string' ? [claim] : [])
        .slice(0, 200)
        .filter((v): v is string => typeof v === 'string'),
    );
    const map = JSON.parse(row.role_map) as SsoRoleMapEntry[];
    const accountRole = map.find((m) => !m.group_id && values.has(m.value))?.role_id ?? row.default_role_id;
    const mappedGroups = [...new Set(map.flatMap((m) => (m.group_id ? [m.group_id] : [])))];
    const wanted = new Map<string, string>();
    for (const m of map)
      if (m.group_id && values.has(m.value) && !wanted.has(m.group_id)) wanted.set(m.group_id, m.role_id);
    const { directory } = this.deps;
    const member = await directory.member(row.account_id, user.uuid);
    const changes: Record<string, unknown> = {};
    if (role !== 'admin' && member && member.role_id !== accountRole) {
      await directory.setAccountRole(row.account_id, user.uuid, accountRole);
      changes['account_role'] = { from: member.role_id, to: accountRole };
    }
    const held = await directory.groupRoles(user.uuid, mappedGroups);
    const groupChanges = mappedGroups.filter(
      (g) => (held.get(g) ?? undefined) !== wanted.get(g) && (held.has(g) || wanted.has(g)),
    );
    if (groupChanges.length) {
      await directory.setGroupRoles(user.uuid, mappedGroups, wanted);
      changes['groups'] = groupChanges.map((g) => ({
        group_id: g,
        from: held.get(g) ?? null,
        to: wanted.get(g) ?? null,
      }));
    }
    if (!Object.keys(changes).length) return;
    await this.deps.audit.record(
      auditEvent(
        { userId: user.uuid, ip },
        row.account_id,
        'SSO_ROLE_CHANGE',
        { type: 'user', id: user.uuid },
        {
          detail: { ...changes, claim: row.claim_roles, values: [...values].slice(0, 20) },
        },
      ),
    );
  }

  /**
   * Sign-out of a session signed in through a provider: its ID token forgotten, and the provider's
   * end-session URL (RP-initiated logout) when it offers one, so the browser ends that session too.
   */
  async endSession(sidHash: string): Promise<string | null> {
    const kept = await this.deps.sso.takeSession(sidHash);
    if (!kept) return null;
    const row = await this.deps.sso.find(kept.account_id);
    if (row?.type !== 'oidc') return null;
    try {
      return await this.deps.clients.endSessionUrl(row, kept.id_token, `${this.deps.publicUrl}/`);
    } catch {
      return null; // the provider unreachable: the local session still ends
    }
  }

  /** Whether SSO stops this user signing in with a password: an account of theirs requires it, and they are not its break-glass admin. */
  async passwordRefusal(userId: string): Promise<{ account_id: string; provider: string } | null> {
    const accountIds = (await this.deps.memberships.accountMemberships(userId)).map((m) => m.account_id);
    const requiring = await this.deps.sso.requiringSso(accountIds);
    const row = requiring.find((r) => r.break_glass_user_id !== userId);
    return row ? { account_id: row.account_id, provider: row.display_name } : null;
  }
}
