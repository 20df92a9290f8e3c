import type { AuditAction } from '@imaging-inbox/contract';
import { filterRows, INVITE_TTL_MS, pageOf, USER_NAME_MAX_LENGTH } from '@imaging-inbox/contract';
import type {
  AccountInvitation,
  AccountRole,
  AccountUser,
  AccountUserPage,
  ListFilter,
} from '@imaging-inbox/contract';
import { DomainError, invalidField, missingFields, notFound } from '../../domain/errors.js';
import type { Caller } from '../../policies/index.js';
import { requireAccountUsers, requireManagedUser, requireMayTouchAdmin } from './account-users.js';
import { requireNotOwnGrant, requireWithinOwnGrant } from '../../policies/index.js';
import { NO_PASSWORD_YET } from './account-users.repository.js';
import type {
  AccountUserQuery,
  AccountUserRow,
  AccountUsersRepository,
  Guarded,
} from './account-users.repository.js';
import type { Mailer } from '../../mail/mailer.js';
import type { AccountsRepository } from '../../repositories/accounts.repository.js';
import type { UsersRepository } from '../../repositories/users.repository.js';
import type { RolesRepository } from './roles.repository.js';
import { isUniqueViolation } from '../../repositories/unique-violation.js';
import { auditEvent, type AuditService } from '../../audit/audit.service.js';
import { hashToken, newSecretToken, newUuid } from '../../security/tokens.js';
import { mailTexts } from '../../mail/messages/index.js';

interface Deps {
  users: AccountUsersRepository;
  /** Finds a user by e-mail (an invitation to a known address waits for them to accept). */
  directory: UsersRepository;
  accounts: AccountsRepository;
  roles: RolesRepository;
  mailer: Mailer;
  audit: AuditService;
  publicUrl: string;
  now?: () => number;
}

const alreadyMember = () => invalidField('email', 'already a user of this account');

const lastAdmin = () => new DomainError('LAST_ADMIN', 'account');

/** A person's name belongs to their home account (decision 0052): another account may not change it. */
const notTheirHome = () =>
  new DomainError('NOT_PERMITTED', 'home_account', {
    why: "this person's name is kept by the account they belong to, not by this one",
  });

function refuseLastAdmin(outcome: Guarded): void {
  if (outcome === 'last_admin') throw lastAdmin();
}

/** A member an admin of `accountId` may reset the two-factor codes of (`twoFactorResettable`). */
export interface ResettableMember {
  uuid: string;
  email: string;
  accountId: string;
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
 *
 * A person's identity (name, password, enabled) belongs to their home account, the one that created
 * them; another account invites them (they accept before it grants anything or sees who they are)
 * and suspends or removes only its own membership (decision 0052). Nobody gives a role carrying
 * more than they hold.
 */
/** How many of an account's users a filtered account/user/list reads before filtering. */
const FILTERED_USERS_READ = 50_000;

export class AccountUserService {
  constructor(private readonly deps: Deps) {}

  async list(
    caller: Caller,
    accountId: string,
    query: AccountUserQuery,
    filters: readonly ListFilter[] = [],
  ): Promise<AccountUserPage> {
    requireAccountUsers(caller, accountId, 'view');
    const inQuery = await this.deps.users.list(accountId, query, filters);
    if (!inQuery) {
      // A filter SQL cannot answer exactly (listFilterSql): the account's users (at most
      // FILTERED_USERS_READ of them) are read whole, filtered as Ambra's filters compare the
      // answer's fields, then paged.
      const all = (await this.deps.users.list(accountId, {
        ...query,
        rows: FILTERED_USERS_READ,
        number: 1,
      }))!;
      const matching = filterRows(
        all.rows.map((row) => present(row, accountId)),
        filters,
      );
      const { items, page } = pageOf(matching, query.number, query.rows);
      return { users: items, page: { ...page, total: matching.length } };
    }
    const { rows, total } = inQuery;
    const more = query.number * query.rows < total ? 1 : 0;
    return {
      users: rows.map((row) => present(row, accountId)),
      // A filtered answer has always named its page's fields in this order.
      page: filters.length
        ? { number: query.number, rows: query.rows, more, total }
        : { number: query.number, rows: query.rows, total, more },
    };
  }

  async get(caller: Caller, accountId: string, userId: string): Promise<AccountUser> {
    requireAccountUsers(caller, accountId, 'view');
    return present(await this.member(accountId, userId), accountId);
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
    // While the invitation is pending the name is the inviter's own note (what they typed); after,
    // it is the person's, changed by their home account only.
    const pending = before.invited === 1;
    if (name && !pending && before.home_account_id !== accountId) throw notTheirHome();
    if (fields.roleId !== undefined) {
      requireNotOwnGrant(caller, accountId, userId === caller.user.uuid);
      await this.checkRole(caller, accountId, fields.roleId);
    }
    refuseLastAdmin(
      await this.deps.users.set(accountId, userId, {
        ...(name ? (pending ? { invitedName: name.name } : { name }) : {}),
        ...(fields.role ? { role: fields.role } : {}),
        ...(fields.roleId !== undefined ? { roleId: fields.roleId } : {}),
      }),
    );
    const after = await this.member(accountId, userId);
    const shown = (row: AccountUserRow) => present(row, accountId).name;
    await this.record(caller, accountId, 'EDIT', userId, {
      before: { name: shown(before), role: before.role, role_id: before.role_id },
      after: { name: shown(after), role: after.role, role_id: after.role_id },
    });
    return present(after, accountId);
  }

  async remove(caller: Caller, accountId: string, userId: string): Promise<void> {
    requireAccountUsers(caller, accountId, 'edit');
    const before = await this.member(accountId, userId);
    requireMayTouchAdmin(caller, accountId, before.role === 'admin');
    refuseLastAdmin(await this.deps.users.remove(accountId, userId));
    await this.record(caller, accountId, 'DELETE', userId, { email: before.email, role: before.role });
  }

  /**
   * The member whose two-factor codes an admin may reset (a lost phone; the accounts module removes
   * them): the account's user editors may, for a person whose home is this account only (the codes
   * guard every account the person joined, so another account that invited them may not weaken
   * them), an admin's only by an account admin, and never the caller's own (they turn theirs off
   * with a code, in Account settings).
   */
  async twoFactorResettable(caller: Caller, accountId: string, userId: string): Promise<ResettableMember> {
    requireAccountUsers(caller, accountId, 'edit');
    const member = await this.member(accountId, userId);
    requireMayTouchAdmin(caller, accountId, member.role === 'admin');
    if (userId === caller.user.uuid) throw new DomainError('NOT_PERMITTED', 'own_two_factor');
    if (member.home_account_id !== accountId) {
      throw new DomainError('NOT_PERMITTED', 'home_account', {
        why: "this person's sign-in is kept by the account they belong to, not by this one",
      });
    }
    return { uuid: member.uuid, email: member.email, accountId };
  }

  /**
   * Invites `email` to the account. A new address becomes a user of this home account with no
   * password and gets a one-time link (the password-reset kind, valid INVITE_TTL_MS) to choose one;
   * a person who already exists gets a pending membership they accept when signed in, and a mail.
   * Either way the answer is the same (the address, the name the inviter typed, never signed in),
   * so it tells nothing about whether the address was known. The user, membership, link and mail
   * are written together.
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
    await this.checkRole(caller, accountId, roleId);
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
          home_account_id: accountId,
          created: now,
        };
    const mail = {
      kind: 'user_invite' as const,
      to: email,
      subject: t('invite.subject', { account: account.name }),
      text,
    };
    try {
      const invitedName = known ? name.name : null;
      await this.deps.users.add(accountId, { userId, role, roleId, invitedName }, newUser, reset, (trx) =>
        this.deps.mailer.queue(mail, trx),
      );
    } catch (error) {
      // Two invitations of one address at once both passed the check above; the second one's user
      // or membership row collides with the first's. The address is a member now: say so.
      if (isUniqueViolation(error)) throw alreadyMember();
      throw error;
    }
    this.deps.mailer.kick();
    // Whether the address was known stays out of the inviting account's audit log too.
    await this.record(caller, accountId, 'INVITE', userId, { email, role, role_id: roleId });
    return present(await this.member(accountId, userId), accountId);
  }

  /**
   * A role given to a member must be one of the account's (null: none), carrying nothing beyond
   * what the caller holds (decision 0052).
   */
  private async checkRole(caller: Caller, accountId: string, roleId: string | null): Promise<void> {
    if (roleId === null) return;
    const role = await this.deps.roles.find(roleId);
    if (!role || role.account_id !== accountId) throw invalidField('role_id', 'not a role of this account');
    requireWithinOwnGrant(caller, accountId, parsePermissions(role.permissions));
  }

  /**
   * Enables or disables a user the caller manages. For a person whose home is an account the caller
   * manages this is their identity: disabling ends their sessions at once and every account they
   * belong to sees it (each one's log says so). For anyone else it suspends or resumes only the
   * memberships in the caller's accounts: the person, their other accounts and their sessions stay.
   */
  async enable(caller: Caller, userId: string, enabled: boolean): Promise<void> {
    const memberships = await this.deps.users.accountsOf(userId);
    const managed = requireManagedUser(
      caller,
      memberships.map((m) => m.account_id),
    );
    const person = await this.deps.directory.findByUuid(userId);
    if (!person) throw notFound('user');
    for (const m of memberships) {
      if (managed.includes(m.account_id)) requireMayTouchAdmin(caller, m.account_id, m.role === 'admin');
    }
    const home = person.home_account_id;
    if (home !== null && managed.includes(home)) {
      refuseLastAdmin(await this.deps.users.setEnabled(userId, enabled));
      const action = enabled ? 'ENABLE' : 'DISABLE';
      for (const accountId of managed) await this.record(caller, accountId, action, userId, null);
      // The other accounts the person joined lose (or regain) them too: their logs say so, naming
      // the home account rather than which of its people did it.
      for (const m of memberships) {
        if (m.invited === 1 || managed.includes(m.account_id)) continue;
        await this.deps.audit.record(
          auditEvent(
            { userId: null },
            m.account_id,
            action,
            { type: 'USER', id: userId },
            {
              detail: { by: 'home_account' },
            },
          ),
        );
      }
      return;
    }
    refuseLastAdmin(await this.deps.users.setSuspended(managed, userId, !enabled));
    for (const accountId of managed) {
      await this.record(caller, accountId, enabled ? 'RESUME' : 'SUSPEND', userId, null);
    }
  }

  /** The invitations waiting for the caller's answer (the account menu lists them). */
  async invitations(caller: Caller): Promise<AccountInvitation[]> {
    return (await this.deps.users.invitationsOf(caller.user.uuid)).map((i) => ({
      account_id: i.account_id,
      name: i.name,
    }));
  }

  /** The caller accepts the account's invitation: from the next call it grants what it holds. */
  async accept(caller: Caller, accountId: string): Promise<void> {
    if (!(await this.deps.users.accept(accountId, caller.user.uuid))) throw notFound('invitation');
    await this.record(caller, accountId, 'ACCEPT', caller.user.uuid, null);
  }

  /**
   * The caller declines the account's invitation: the pending membership goes. The inviting
   * account's log says it was declined, not by whom by name: they never accepted being seen.
   */
  async decline(caller: Caller, accountId: string): Promise<void> {
    if (!(await this.deps.users.decline(accountId, caller.user.uuid))) throw notFound('invitation');
    await this.deps.audit.record(
      auditEvent({ userId: null }, accountId, 'DECLINE', { type: 'USER', id: caller.user.uuid }),
    );
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
    action: AuditAction,
    userId: string,
    detail: Record<string, unknown> | null,
  ) {
    return this.deps.audit.recordAdministration(caller, accountId, action, 'USER', userId, detail);
  }
}

function parsePermissions(json: string): string[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.map(String) : [];
}

/**
 * A member as account `accountId` sees them. Until a person accepts, the account sees only the
 * address and the name its inviter typed, never signed in and enabled, exactly as a new address it
 * invited, so neither tells whether the address was known (decision 0052).
 */
export function present(row: AccountUserRow, accountId: string): AccountUser {
  const pending = row.invited === 1;
  const names = pending
    ? splitName(row.invited_name ?? row.email)
    : { name: row.name, first_name: row.first_name, last_name: row.last_name };
  const identityEnabled = pending || row.status === 'ACTIVE';
  return {
    uuid: row.uuid,
    ...names,
    email: row.email,
    last_login: pending || row.last_login === null ? null : Number(row.last_login),
    role: row.role === 'admin' ? 'admin' : 'user',
    account_role: row.role_id && row.role_name !== null ? { uuid: row.role_id, name: row.role_name } : null,
    enabled: identityEnabled && row.suspended !== 1 ? 1 : 0,
    invited: pending || row.no_password === 1 ? 1 : 0,
    // A suspended pending invitation reads as a disabled new address would: enabled 0 only.
    suspended: !pending && row.suspended === 1 ? 1 : 0,
    // While pending the name is the inviter's note, theirs to change; after, the home account's.
    renamable: pending || row.home_account_id === accountId ? 1 : 0,
  };
}
