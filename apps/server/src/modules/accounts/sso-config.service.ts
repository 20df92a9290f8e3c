import type {
  AccountSso,
  SamlServiceProvider,
  SsoRoleMapEntry,
  accountSsoSetRequest,
} from '@imaging-inbox/contract';
import type { z } from 'zod';
import { invalidField, missingFields } from '../../domain/errors.js';
import { requireAccountSettingsEdit, type Caller } from '../../policies/index.js';
import type { AuditService } from '../../audit/audit.service.js';
import type { UsersRepository } from '../../repositories/users.repository.js';
import type { SamlClients } from './saml-client.js';
import { SamlSettingsError, certificatesOf, describeCertificate, parseIdpMetadata } from './saml-metadata.js';
import type { SsoDirectoryRepository } from './sso-directory.repository.js';
import type { SsoConfigRow, SsoRepository } from './sso.repository.js';

/** The attribute names Entra ID and ADFS send by default, the defaults of a SAML provider. */
const SAML_CLAIMS = {
  claim_email: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  claim_first: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
  claim_last: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
} as const;
const OIDC_CLAIMS = { claim_email: 'email', claim_first: 'given_name', claim_last: 'family_name' } as const;

export type SsoSetInput = z.output<typeof accountSsoSetRequest>;

export interface SsoConfigDeps {
  sso: SsoRepository;
  directory: SsoDirectoryRepository;
  users: UsersRepository;
  audit: AuditService;
  publicUrl: string;
  saml: SamlClients;
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
  'saml_entry_point',
] as const;

/**
 * An account's identity provider, OpenID Connect (decision 0066) or SAML 2.0 (decision 0070), read
 * and set by the admins of that account (the account-settings rule: a member who is not an admin
 * is refused, anyone else does not find the account). The client secret is stored and never
 * answered: the answer says only whether one is. A SAML provider's metadata is read once, at set.
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

  /** What a SAML identity provider's admin registers for this account (as set, or the defaults). */
  async serviceProvider(accountId: string): Promise<SamlServiceProvider> {
    const row = await this.deps.sso.find(accountId);
    const { saml } = this.deps;
    return {
      entity_id: saml.entityId(accountId, row),
      acs_url: saml.acsUrl,
      metadata_url: saml.metadataUrl(accountId),
    };
  }

  /** The service provider's metadata XML of an account with a SAML provider (none: NOT_FOUND). */
  async metadata(accountId: string): Promise<string | undefined> {
    const row = await this.deps.sso.find(accountId);
    return row?.type === 'saml' ? this.deps.saml.metadata(accountId, row) : undefined;
  }

  /**
   * A SAML provider's identity-provider side: from the metadata XML when pasted (the sign-on URL
   * and certificate typed beside it win), else as typed, else as stored; each refusal on its field.
   */
  private samlSettings(input: SsoSetInput, before: SsoConfigRow | undefined) {
    const kept = before?.type === 'saml' ? before : undefined;
    try {
      const fromMetadata = input.idp_metadata ? parseIdpMetadata(input.idp_metadata) : undefined;
      const entryPoint = input.entry_point ?? fromMetadata?.entryPoint ?? kept?.saml_entry_point ?? null;
      const certs = input.idp_cert
        ? certificatesOf(input.idp_cert, 'idp_cert')
        : (fromMetadata?.certs ??
          (kept?.saml_idp_certs ? (JSON.parse(kept.saml_idp_certs) as string[]) : null));
      const missing = [...(entryPoint ? [] : ['entry_point']), ...(certs ? [] : ['idp_cert'])];
      if (missing.length) throw missingFields(missing);
      return {
        entryPoint: entryPoint!,
        certs: certs!,
        issuer: input.issuer ?? fromMetadata?.entityId ?? kept?.issuer ?? '',
      };
    } catch (error) {
      if (error instanceof SamlSettingsError) throw invalidField(error.field, error.message);
      throw error;
    }
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
    const saml = input.type === 'saml' ? this.samlSettings(input, before) : undefined;
    // A change of type starts from that type's defaults, not the other protocol's values.
    const same = before?.type === input.type ? before : undefined;
    const claims = saml ? SAML_CLAIMS : OIDC_CLAIMS;
    const secret =
      saml || input.client_secret_clear ? null : (input.client_secret ?? same?.client_secret ?? null);
    const row: SsoConfigRow = {
      account_id: accountId,
      type: input.type,
      enabled: input.enabled ?? before?.enabled ?? 1,
      display_name: input.display_name,
      // SAML: the identity provider's entity ID ('' unknown) and this service's ('' its metadata URL).
      issuer: saml ? saml.issuer : input.issuer!.replace(/\/$/, ''),
      client_id: saml ? (input.client_id ?? same?.client_id ?? '') : input.client_id!,
      client_secret: secret,
      scopes: saml ? '' : (input.scopes ?? same?.scopes ?? 'openid email profile'),
      claim_email: input.claim_email ?? same?.claim_email ?? claims.claim_email,
      claim_first: input.claim_first ?? same?.claim_first ?? claims.claim_first,
      claim_last: input.claim_last ?? same?.claim_last ?? claims.claim_last,
      claim_roles: input.claim_roles !== undefined ? input.claim_roles : (before?.claim_roles ?? null),
      role_map: JSON.stringify(roleMap),
      domains: JSON.stringify(input.domains ?? (before ? (JSON.parse(before.domains) as string[]) : [])),
      jit,
      default_role_id: defaultRoleId,
      require_sso: requireSso,
      break_glass_user_id: breakGlass,
      updated: this.now(),
      saml_entry_point: saml?.entryPoint ?? null,
      saml_idp_certs: saml ? JSON.stringify(saml.certs) : null,
    };
    await this.deps.sso.save(row);
    this.deps.forget(accountId);
    const changed: Record<string, unknown> = {};
    for (const key of AUDITED) {
      if (before?.[key] !== row[key]) changed[key] = row[key];
    }
    if ((before?.client_secret ?? null) !== secret) changed['client_secret'] = secret ? 'changed' : 'removed';
    if ((before?.saml_idp_certs ?? null) !== row.saml_idp_certs) {
      changed['saml_idp_certs'] = saml?.certs.map((c) => describeCertificate(c).sha256) ?? null;
    }
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
      type: row.type === 'saml' ? 'saml' : 'oidc',
      enabled: row.enabled ? 1 : 0,
      display_name: row.display_name,
      issuer: row.issuer,
      client_id: row.type === 'saml' ? this.deps.saml.entityId(row.account_id, row) : row.client_id,
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
      entry_point: row.saml_entry_point,
      idp_certs: (JSON.parse(row.saml_idp_certs ?? '[]') as string[]).map(describeCertificate),
    };
  }
}
