import { INVITE_TTL_MS, USER_NAME_MAX_LENGTH } from '@imaging-inbox/contract';
import type { AccountRole, AccountUser, AccountUserPage } from '@imaging-inbox/contract';
import { DomainError, invalidField, missingFields, notFound } from '../domain/errors.js';
import type { Caller } from '../policies/index.js';
import {
  requireAccountUsers,
  requireManagedUser,
  requireMayTouchAdmin,
  requireNotOwnGrant,
} from '../policies/index.js';
import type {
  AccountUserQuery,
  AccountUserRow,
  AccountUsersRepository,
  Guarded,
} from '../repositories/account-users.repository.js';
import type { Mailer } from '../mail/mailer.js';
import type { AccountsRepository } from '../repositories/accounts.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { RolesRepository } from '../repositories/roles.repository.js';
import { isUniqueViolation } from '../repositories/unique-violation.js';
import type { AuditService } from './audit.service.js';
import { hashToken, newSecretToken, newUuid } from './tokens.js';
import { mailTexts } from '../mail/messages/index.js';

interface Deps {
  users: AccountUsersRepository;
  /** Finds a user by e-mail (an invitation to a known address adds them, no new login). */
  directory: UsersRepository;
  accounts: AccountsRepository;
  roles: RolesRepository;
  mailer: Mailer;
  audit: AuditService;
  publicUrl: string;
  now?: () => number;
}

/** Password hash of an invited user who has not chosen a password yet: matches no password. */
const NO_PASSWORD_YET = '!invited';

const alreadyMember = () => invalidField('email', 'already a user of this account');

const lastAdmin = () => new DomainError('LAST_ADMIN', 'account');

function refuseLastAdmin(outcome: Guarded): void {
  if (outcome === 'last_admin') throw lastAdmin();
}

/** "Ann Lee" → first name Ann, last name Lee (a single word is a first name). */
function splitName(full: string): { name: string; first_name: string; last_name: string } {
  const name = full.trim().replace(/\s+/g, ' ');
  const space = name.indexOf(' ');
  return space < 0
    ? { name, first_name: name, last_name: '' }
    : { name, first_name: name.slice(0, space), last_name: name.slice(space + 1) };
}

/**
 * The users of an account for its administrators (SPEC.md user administration): list, read,
 * rename, change role, remove, enable and disable. The account always keeps an enabled admin.
 */
export class AccountUserService {
  constructor(private readonly deps: Deps) {}

  async list(caller: Caller, accountId: string, query: AccountUserQuery): Promise<AccountUserPage> {
    requireAccountUsers(caller, accountId, 'view');
    const { rows, total } = await this.deps.users.list(accountId, query);
    return {
      users: rows.map(present),
      page: {
        number: query.number,
        rows: query.rows,
        total,
        more: query.number * query.rows < total ? 1 : 0,
      },
    };
  }

  async get(caller: Caller, accountId: string, userId: string): Promise<AccountUser> {
    requireAccountUsers(caller, accountId, 'view');
    return present(await this.member(accountId, userId));
  }

  async set(
    caller: Caller,
    accountId: string,
    userId: string,
    fields: {
      name?: string | undefined;
      role?: AccountRole | undefined;
      roleId?: string | null | undefined;
    },
  ): Promise<AccountUser> {
    requireAccountUsers(caller, accountId, 'edit');
    const before = await this.member(accountId, userId);
    requireMayTouchAdmin(caller, accountId, before.role === 'admin' || fields.role === 'admin');
    if (fields.name === undefined && fields.role === undefined && fields.roleId === undefined) {
      throw missingFields(['name', 'role', 'role_id']);
    }
    const name = fields.name === undefined ? undefined : this.checkName(fields.name);
    if (fields.roleId !== undefined) {
      requireNotOwnGrant(caller, accountId, userId === caller.user.uuid);
      await this.checkRole(accountId, fields.roleId);
    }
    refuseLastAdmin(
      await this.deps.users.set(accountId, userId, {
        ...(name ? { name } : {}),
        ...(fields.role ? { role: fields.role } : {}),
        ...(fields.roleId !== undefined ? { roleId: fields.roleId } : {}),
      }),
    );
    const after = await this.member(accountId, userId);
    await this.record(caller, accountId, 'EDIT', userId, {
      before: { name: before.name, role: before.role, role_id: before.role_id },
      after: { name: after.name, role: after.role, role_id: after.role_id },
    });
    return present(after);
  }

  async remove(caller: Caller, accountId: string, userId: string): Promise<void> {
    requireAccountUsers(caller, accountId, 'edit');
    const before = await this.member(accountId, userId);
    requireMayTouchAdmin(caller, accountId, before.role === 'admin');
    refuseLastAdmin(await this.deps.users.remove(accountId, userId));
    await this.record(caller, accountId, 'DELETE', userId, { email: before.email, role: before.role });
  }

  /**
   * Invites `email` to the account. A new address becomes a user with no password and gets a
   * one-time link (the password-reset kind, valid INVITE_TTL_MS) to choose one; a known user is
   * added and told by mail. The user, membership, link and mail are written together.
   */
  async invite(
    caller: Caller,
    accountId: string,
    fields: {
      email: string;
      name?: string | undefined;
      role?: AccountRole | undefined;
      roleId?: string | null | undefined;
    },
  ): Promise<AccountUser> {
    requireAccountUsers(caller, accountId, 'invite');
    const role = fields.role ?? 'user';
    requireMayTouchAdmin(caller, accountId, role === 'admin');
    const roleId = fields.roleId ?? null;
    await this.checkRole(accountId, roleId);
    const email = fields.email.trim().toLowerCase();
    const name = this.checkName(fields.name ?? email.split('@')[0]!);
    const account = await this.deps.accounts.findAccount(accountId);
    if (!account) throw notFound('account');
    const known = await this.deps.directory.findByEmail(email);
    if (known && (await this.deps.users.find(accountId, known.uuid))) throw alreadyMember();
    const now = (this.deps.now ?? Date.now)();
    const userId = known?.uuid ?? newUuid();
    const inviter = caller.user.name || caller.user.email;
    // A member reads their own language; a newcomer has none yet and reads the inviter's.
    const t = mailTexts(await this.deps.mailer.languages.ofUser(known ?? caller.user, accountId));
    let text: string;
    let reset: { token_hash: string; user_id: string; expires: number; used: null } | undefined;
    if (known) {
      text = t('invite.added', { inviter, account: account.name, email, link: `${this.deps.publicUrl}/` });
    } else {
      const token = newSecretToken();
      reset = { token_hash: hashToken(token), user_id: userId, expires: now + INVITE_TTL_MS, used: null };
      const link = `${this.deps.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
      text = t('invite.invited', { inviter, account: account.name, email, link });
    }
    const newUser = known
      ? undefined
      : {
          uuid: userId,
          email,
          ...name,
          password_hash: NO_PASSWORD_YET,
          password_history: '[]',
          sysadmin: 0,
          support: 0,
          status: 'ACTIVE',
          created: now,
        };
    const mail = {
      kind: 'user_invite' as const,
      to: email,
      subject: t('invite.subject', { account: account.name }),
      text,
    };
    try {
      await this.deps.users.add(accountId, { userId, role, roleId }, newUser, reset, (trx) =>
        this.deps.mailer.queue(mail, trx),
      );
    } catch (error) {
      // Two invitations of one address at once both passed the check above; the second one's user
      // or membership row collides with the first's. The address is a member now: say so.
      if (isUniqueViolation(error)) throw alreadyMember();
      throw error;
    }
    this.deps.mailer.kick();
    await this.record(caller, accountId, 'INVITE', userId, {
      email,
      role,
      role_id: roleId,
      new_user: known ? 0 : 1,
    });
    return present(await this.member(accountId, userId));
  }

  /** A role given to a member must be one of the account's (null: none). */
  private async checkRole(accountId: string, roleId: string | null): Promise<void> {
    if (roleId === null) return;
    const role = await this.deps.roles.find(roleId);
    if (!role || role.account_id !== accountId) throw invalidField('role_id', 'not a role of this account');
  }

  /** Enables or disables a user the caller manages; disabling ends their sessions at once. */
  async enable(caller: Caller, userId: string, enabled: boolean): Promise<void> {
    const memberships = await this.deps.users.accountsOf(userId);
    const managed = requireManagedUser(
      caller,
      memberships.map((m) => m.account_id),
    );
    // Disabling is global: an admin of any account is theirs to disable or enable.
    for (const m of memberships) requireMayTouchAdmin(caller, m.account_id, m.role === 'admin');
    refuseLastAdmin(await this.deps.users.setEnabled(userId, enabled));
    for (const accountId of managed) {
      await this.record(caller, accountId, enabled ? 'ENABLE' : 'DISABLE', userId, null);
    }
  }

  private checkName(raw: string): ReturnType<typeof splitName> {
    const name = splitName(raw);
    if (!name.name) throw invalidField('name', 'must not be blank');
    if (name.name.length > USER_NAME_MAX_LENGTH) {
      throw invalidField('name', `must be at most ${USER_NAME_MAX_LENGTH} characters`);
    }
    return name;
  }

  private async member(accountId: string, userId: string): Promise<AccountUserRow> {
    const row = await this.deps.users.find(accountId, userId);
    if (!row) throw notFound('user');
    return row;
  }

  private record(
    caller: Caller,
    accountId: string,
    action: string,
    userId: string,
    detail: Record<string, unknown> | null,
  ) {
    return this.deps.audit.recordAdministration(caller, accountId, action, 'USER', userId, detail);
  }
}

export function present(row: AccountUserRow): AccountUser {
  return {
    uuid: row.uuid,
    name: row.name,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    last_login: row.last_login === null ? null : Number(row.last_login),
    role: row.role === 'admin' ? 'admin' : 'user',
    account_role: row.role_id && row.role_name !== null ? { uuid: row.role_id, name: row.role_name } : null,
    enabled: row.status === 'ACTIVE' ? 1 : 0,
  };
}
