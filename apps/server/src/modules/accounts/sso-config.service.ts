import type { AccountSso, SsoRoleMapEntry, accountSsoSetRequest } from '@imaging-inbox/contract';
import type { z } from 'zod';
import { invalidField } from '../../domain/errors.js';
import { requireAccountSettingsEdit, type Caller } from '../../policies/index.js';
import type { AuditService } from '../../audit/audit.service.js';
import type { UsersRepository } from '../../repositories/users.repository.js';
import type { SsoDirectoryRepository } from './sso-directory.repository.js';
import type { SsoConfigRow, SsoRepository } from './sso.repository.js';

export type SsoSetInput = z.output<typeof accountSsoSetRequest>;

export interface SsoConfigDeps {
  sso: SsoRepository;
  directory: SsoDirectoryRepository;
  users: UsersRepository;
  audit: AuditService;
  publicUrl: string;
  /** Forgets what was discovered of a provider whose settings changed. */
  forget: (accountId: string) => void;
  now?: () => number;
}

/** The fields an admin sees change in the audit log (never the secret itself). */
const AUDITED = [
  'type',
  'enabled',
  'display_name',
  'issuer',
  'client_id',
  'scopes',
  'claim_email',
  'claim_first',
  'claim_last',
  'claim_roles',
  'role_map',
  'domains',
  'jit',
  'default_role_id',
  'require_sso',
  'break_glass_user_id',
] as const;

/**
 * An account's OpenID Connect provider, read and set by the admins of that account (the
 * account-settings rule: a member who is not an admin is refused, anyone else does not find the
 * account). The client secret is stored and never answered: the answer says only whether one is.
 */
export class SsoConfigService {
  private readonly now: () => number;

  constructor(private readonly deps: SsoConfigDeps) {
    this.now = deps.now ?? Date.now;
  }

  get redirectUri(): string {
    return `${this.deps.publicUrl}/api/v3/session/sso/callback`;
  }

  async get(caller: Caller, accountId: string): Promise<AccountSso | null> {
    requireAccountSettingsEdit(caller, accountId);
    const row = await this.deps.sso.find(accountId);
    return row ? this.present(row) : null;
  }

  async set(caller: Caller, input: SsoSetInput): Promise<AccountSso> {
    const accountId = input.account_id;
    requireAccountSettingsEdit(caller, accountId);
    const before = await this.deps.sso.find(accountId);
    const roleMap = input.role_map ?? (before ? (JSON.parse(before.role_map) as SsoRoleMapEntry[]) : []);
    const jit = input.jit ?? before?.jit ?? 0;
    const requireSso = input.require_sso ?? before?.require_sso ?? 0;
    const defaultRoleId =
      input.default_role_id !== undefined ? input.default_role_id : (before?.default_role_id ?? null);
    await this.checkOwned(accountId, roleMap, defaultRoleId);
    if (jit && !defaultRoleId) throw invalidField('default_role_id', 'new users need the role they get');
    const breakGlass = await this.breakGlass(accountId, input.break_glass_email, before);
    if (requireSso && !breakGlass) {
      throw invalidField('break_glass_email', 'name an admin who may still sign in with a password');
    }
    const secret = input.client_secret_clear ? null : (input.client_secret ?? before?.client_secret ?? null);
    const row: SsoConfigRow = {
      account_id: accountId,
      type: input.type,
      enabled: input.enabled ?? before?.enabled ?? 1,
      display_name: input.display_name,
      issuer: input.issuer.replace(/\/$/, ''),
      client_id: input.client_id,
      client_secret: secret,
      scopes: input.scopes ?? before?.scopes ?? 'openid email profile',
      claim_email: input.claim_email ?? before?.claim_email ?? 'email',
      claim_first: input.claim_first ?? before?.claim_first ?? 'given_name',
      claim_last: input.claim_last ?? before?.claim_last ?? 'family_name',
      claim_roles: input.claim_roles !== undefined ? input.claim_roles : (before?.claim_roles ?? null),
      role_map: JSON.stringify(roleMap),
      domains: JSON.stringify(input.domains ?? (before ? (JSON.parse(before.domains) as string[]) : [])),
      jit,
      default_role_id: defaultRoleId,
      require_sso: requireSso,
      break_glass_user_id: breakGlass,
      updated: this.now(),
    };
    await this.deps.sso.save(row);
    this.deps.forget(accountId);
    const changed: Record<string, unknown> = {};
    for (const key of AUDITED) {
      if (before?.[key] !== row[key]) changed[key] = row[key];
    }
    if ((before?.client_secret ?? null) !== secret) changed['client_secret'] = secret ? 'changed' : 'removed';
    await this.deps.audit.recordAdministration(caller, accountId, 'ACCOUNT_SSO_SET', 'account', accountId, {
      changed,
    });
    return this.present(row);
  }

  /** The break-glass member: by e-mail, an admin of the account; '' clears it; absent keeps it. */
  private async breakGlass(
    accountId: string,
    email: string | undefined,
    before: SsoConfigRow | undefined,
  ): Promise<string | null> {
    if (email === undefined) return before?.break_glass_user_id ?? null;
    const user = await this.deps.users.findByEmail(email);
    const member = user ? await this.deps.directory.member(accountId, user.uuid) : undefined;
    if (!user || member?.role !== 'admin' || member.suspended || member.invited) {
      throw invalidField('break_glass_email', 'must be an admin of this account');
    }
    return user.uuid;
  }

  /** A map or default role naming what is not the account's own is refused, nothing saved. */
  private async checkOwned(accountId: string, map: SsoRoleMapEntry[], defaultRoleId: string | null) {
    const roleIds = [...new Set([...map.map((m) => m.role_id), ...(defaultRoleId ? [defaultRoleId] : [])])];
    const groupIds = [...new Set(map.flatMap((m) => (m.group_id ? [m.group_id] : [])))];
    const owned = await this.deps.directory.ownedBy(accountId, roleIds, groupIds);
    if (defaultRoleId && !owned.roles.has(defaultRoleId)) {
      throw invalidField('default_role_id', 'must be a role of this account');
    }
    if (map.some((m) => !owned.roles.has(m.role_id) || (m.group_id && !owned.groups.has(m.group_id)))) {
      throw invalidField('role_map', 'must name roles and groups of this account');
    }
  }

  private async present(row: SsoConfigRow): Promise<AccountSso> {
    const breakGlass = row.break_glass_user_id
      ? await this.deps.users.findByUuid(row.break_glass_user_id)
      : undefined;
    return {
      account_id: row.account_id,
      type: 'oidc',
      enabled: row.enabled ? 1 : 0,
      display_name: row.display_name,
      issuer: row.issuer,
      client_id: row.client_id,
      client_secret_set: row.client_secret ? 1 : 0,
      scopes: row.scopes,
      claim_email: row.claim_email,
      claim_first: row.claim_first,
      claim_last: row.claim_last,
      claim_roles: row.claim_roles,
      role_map: JSON.parse(row.role_map) as SsoRoleMapEntry[],
      domains: JSON.parse(row.domains) as string[],
      jit: row.jit ? 1 : 0,
      default_role_id: row.default_role_id,
      require_sso: row.require_sso ? 1 : 0,
      break_glass_email: breakGlass?.email ?? null,
      redirect_uri: this.redirectUri,
    };
  }
}
