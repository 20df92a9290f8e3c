import type { Insertable, Kysely, RawBuilder, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { AccountUser } from '@imaging-inbox/contract';
import type { Database, PasswordResetTable, UserTable } from '../../db/schema.js';
import type { AlsoInTransaction } from '../../repositories/with-transaction.js';
import { likePattern } from '../../repositories/study-search.sql.js';
import type { ListFilter } from '@imaging-inbox/contract';
import type { DialectName } from '../../db/dialect.js';
import { listFilterSql, type FilterField } from '../../repositories/list-filter.sql.js';

/** The contract's user as stored: the role and status as written, the account role by id and name. */
export type AccountUserRow = Pick<
  AccountUser,
  'uuid' | 'name' | 'first_name' | 'last_name' | 'email' | 'last_login'
> & {
  role: string;
  status: string;
  role_id: string | null;
  role_name: string | null;
  /** The account the person's identity belongs to (decision 0052). */
  home_account_id: string | null;
  /** 1 while the person has not accepted the invitation (the membership grants nothing). */
  invited: number;
  /** 1 while this account has suspended the membership (it grants nothing here). */
  suspended: number;
  /** The name the inviter typed: what the account sees until the person accepts. */
  invited_name: string | null;
  /** 1 while the person has not chosen a password (a new address's invitation not yet taken up). */
  no_password: number;
};

export interface AccountUserQuery {
  /** Part of the name or e-mail, any case; `%` is the only wildcard. */
  filter?: string | undefined;
  sort: { field: 'name' | 'email' | 'last_login' | 'role'; direction: 'asc' | 'desc' };
  rows: number;
  number: number;
}

/** A change refused because the account would be left without an enabled admin. */
export type Guarded = 'done' | 'last_admin';

const ACTIVE = 'ACTIVE';

/**
 * The name an account sees and searches: the one its inviter typed while the person has not
 * accepted, so a pending invitation never tells who holds the address.
 */
const SHOWN_NAME = sql`(case when account_members.invited = 1 then account_members.invited_name else users.name end)`;

/** Password hash of an invited user who has not chosen a password yet: matches no password. */
export const NO_PASSWORD_YET = '!invited';

/**
 * The fields of an account user's answer (`present` in account-user.service.ts) as SQL, for the
 * list filters. While the invitation is pending the names are the inviter's note (or the address)
 * split at its first space, as `splitName` splits it: the note is stored already trimmed with its
 * spaces single (`splitName(...).name`), and an address holds no space.
 */
function accountUserFields(dialect: DialectName): Record<string, FilterField> {
  const pending = sql`account_members.invited = 1`;
  const note = sql`coalesce(account_members.invited_name, users.email)`;
  const space = dialect === 'postgres' ? sql`strpos(${note}, ' ')` : sql`instr(${note}, ' ')`;
  const text = (value: RawBuilder<unknown>): FilterField => ({ kind: 'text', value });
  const integer = (value: RawBuilder<unknown>): FilterField => ({ kind: 'integer', value });
  return {
    uuid: text(sql`users.uuid`),
    name: text(sql`(case when ${pending} then ${note} else users.name end)`),
    first_name: text(
      sql`(case when ${pending} then (case when ${space} = 0 then ${note} else substr(${note}, 1, ${space} - 1) end) else users.first_name end)`,
    ),
    last_name: text(
      sql`(case when ${pending} then (case when ${space} = 0 then '' else substr(${note}, ${space} + 1) end) else users.last_name end)`,
    ),
    email: text(sql`users.email`),
    role: text(sql`(case when account_members.role = 'admin' then 'admin' else 'user' end)`),
    enabled: integer(
      sql`(case when (${pending} or users.status = ${ACTIVE}) and account_members.suspended <> 1 then 1 else 0 end)`,
    ),
    invited: integer(
      sql`(case when ${pending} or users.password_hash = ${NO_PASSWORD_YET} then 1 else 0 end)`,
    ),
    suspended: integer(sql`(case when not (${pending}) and account_members.suspended = 1 then 1 else 0 end)`),
    last_login: integer(sql`(case when ${pending} then null else users.last_login end)`),
  };
}

/** A membership that gives access: accepted and not suspended (decision 0052). */
export interface MembershipState {
  account_id: string;
  role: string;
  invited: number;
  suspended: number;
}

/**
 * The users of an account with their membership (role), and the changes its administrators make:
 * each change that could take away an admin runs in one transaction with the check that another
 * enabled admin remains, so two admins demoting each other at once cannot both succeed.
 */
export class AccountUsersRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  private members(db: Kysely<Database>, accountId: string) {
    return db
      .selectFrom('account_members')
      .innerJoin('users', 'users.uuid', 'account_members.user_id')
      .leftJoin('roles', 'roles.uuid', 'account_members.role_id')
      .where('account_members.account_id', '=', accountId);
  }

  /**
   * A page of the account's users, sorted, and counted. Given list filters (Ambra's, on the answer's
   * fields), only the users they pass, as `filterRows` would on the answers; `undefined` when SQL
   * cannot promise that answer (`listFilterSql`), for the caller to filter in memory.
   */
  async list(
    accountId: string,
    q: AccountUserQuery,
    filters: readonly ListFilter[] = [],
  ): Promise<{ rows: AccountUserRow[]; total: number } | undefined> {
    const where = listFilterSql(this.dialect, accountUserFields(this.dialect), filters);
    if (!where) return undefined;
    let base = this.members(this.db, accountId).where(where);
    if (q.filter) {
      const pattern = `%${likePattern(q.filter.toLowerCase())}%`;
      base = base.where((eb) =>
        eb.or([
          eb(sql`lower(${SHOWN_NAME})`, 'like', sql<string>`${pattern} escape '\\'`),
          eb(eb.fn('lower', ['users.email']), 'like', sql<string>`${pattern} escape '\\'`),
        ]),
      );
    }
    const { n } = await base
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const column = {
      name: sql`lower(${SHOWN_NAME})`,
      email: sql`users.email`,
      // Never signed in sorts as the oldest, the same on both dialects (they order NULLs apart).
      last_login: sql`(case when account_members.invited = 1 then 0 else coalesce(users.last_login, 0) end)`,
      // Admins first (ascending), then by the name of the role held.
      role: sql`(case when account_members.role = 'admin' then '' else coalesce(lower(roles.name), '~') end)`,
    }[q.sort.field];
    const rows = await base
      .select([...USER_COLUMNS])
      .orderBy(column, q.sort.direction)
      .orderBy('users.uuid')
      .limit(q.rows)
      .offset((q.number - 1) * q.rows)
      .execute();
    return { rows, total: Number(n) };
  }

  find(accountId: string, userId: string): Promise<AccountUserRow | undefined> {
    return this.members(this.db, accountId)
      .select([...USER_COLUMNS])
      .where('users.uuid', '=', userId)
      .executeTakeFirst();
  }

  /** The accounts the user belongs to, with their role and the membership's state in each. */
  accountsOf(userId: string): Promise<MembershipState[]> {
    return this.db
      .selectFrom('account_members')
      .select(['account_id', 'role', 'invited', 'suspended'])
      .where('user_id', '=', userId)
      .execute();
  }

  /** The invitations the user has not answered yet, with the inviting account's name. */
  invitationsOf(userId: string): Promise<{ account_id: string; name: string }[]> {
    return this.db
      .selectFrom('account_members')
      .innerJoin('accounts', 'accounts.uuid', 'account_members.account_id')
      .select(['account_members.account_id', 'accounts.name'])
      .where('account_members.user_id', '=', userId)
      .where('account_members.invited', '=', 1)
      .orderBy('accounts.name')
      .execute();
  }

  /** The user accepts a pending invitation of the account: false when there is none. */
  async accept(accountId: string, userId: string): Promise<boolean> {
    const result = await this.db
      .updateTable('account_members')
      .set({ invited: 0, invited_name: null })
      .where('account_id', '=', accountId)
      .where('user_id', '=', userId)
      .where('invited', '=', 1)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The user declines a pending invitation: the membership (and its groups) go; false when there is none. */
  decline(accountId: string, userId: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const gone = await trx
        .deleteFrom('account_members')
        .where('account_id', '=', accountId)
        .where('user_id', '=', userId)
        .where('invited', '=', 1)
        .executeTakeFirst();
      if (Number(gone.numDeletedRows) === 0) return false;
      await this.removeGroupMemberships(trx, accountId, userId);
      return true;
    });
  }

  /**
   * Adds a member to the account: a new user first when `newUser` is given with the one-time link
   * to choose a password (`passwordLink`), and the mail in the same transaction, so no invitation
   * is half made.
   */
  async add(
    accountId: string,
    member: { userId: string; role: string; roleId: string | null; invitedName: string | null },
    newUser: Insertable<UserTable> | undefined,
    passwordLink: Insertable<PasswordResetTable> | undefined,
    also: AlsoInTransaction,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (newUser) await trx.insertInto('users').values(newUser).execute();
      if (passwordLink) await trx.insertInto('password_resets').values(passwordLink).execute();
      await trx
        .insertInto('account_members')
        .values({
          account_id: accountId,
          user_id: member.userId,
          role: member.role,
          role_id: member.roleId,
          permissions: '[]',
          // A person who already exists joins only once they accept (decision 0052).
          invited: member.invitedName === null ? 0 : 1,
          invited_name: member.invitedName,
        })
        .execute();
      await also(trx);
    });
  }

  /**
   * Sets the user's name (their identity's: the caller checked it is theirs to change), the name
   * typed for a pending invitation, and/or their role in the account; refuses to demote its last
   * enabled admin.
   */
  set(
    accountId: string,
    userId: string,
    change: {
      name?: { name: string; first_name: string; last_name: string };
      invitedName?: string;
      role?: string;
      roleId?: string | null;
    },
  ): Promise<Guarded> {
    return this.guarded([accountId], async (trx) => {
      if (change.role && change.role !== 'admin' && !(await this.anotherAdmin(trx, accountId, userId))) {
        return 'last_admin';
      }
      if (change.name) await trx.updateTable('users').set(change.name).where('uuid', '=', userId).execute();
      if (change.role || change.roleId !== undefined || change.invitedName !== undefined) {
        await trx
          .updateTable('account_members')
          .set({
            ...(change.role ? { role: change.role } : {}),
            ...(change.roleId !== undefined ? { role_id: change.roleId } : {}),
            ...(change.invitedName !== undefined ? { invited_name: change.invitedName } : {}),
          })
          .where('account_id', '=', accountId)
          .where('user_id', '=', userId)
          .execute();
      }
      return 'done';
    });
  }

  /** Takes the user out of the account and its groups; refuses to remove its last enabled admin. */
  remove(accountId: string, userId: string): Promise<Guarded> {
    return this.guarded([accountId], async (trx) => {
      if (!(await this.anotherAdmin(trx, accountId, userId))) return 'last_admin';
      await this.removeGroupMemberships(trx, accountId, userId);
      await trx
        .deleteFrom('account_members')
        .where('account_id', '=', accountId)
        .where('user_id', '=', userId)
        .execute();
      return 'done';
    });
  }

  /**
   * Enables or disables the user everywhere. Disabling ends their sessions in the same transaction,
   * and is refused while they are the last enabled admin of any of their accounts.
   */
  setEnabled(userId: string, enabled: boolean): Promise<Guarded> {
    return this.db.transaction().execute(async (trx) => {
      const accounts = await this.accountsOfIn(trx, userId);
      await this.lockAccounts(trx, accounts);
      if (!enabled) {
        for (const accountId of accounts) {
          if (!(await this.anotherAdmin(trx, accountId, userId))) return 'last_admin';
        }
      }
      await trx
        .updateTable('users')
        .set({ status: enabled ? ACTIVE : 'DISABLED' })
        .where('uuid', '=', userId)
        .execute();
      if (!enabled) await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
      return 'done';
    });
  }

  /**
   * Suspends or resumes the user's membership in these accounts only: their identity, their other
   * accounts and their sessions stay. Suspending is refused while it would leave one of them
   * without an enabled admin.
   */
  setSuspended(accountIds: string[], userId: string, suspended: boolean): Promise<Guarded> {
    return this.guarded(accountIds, async (trx) => {
      if (suspended) {
        for (const accountId of accountIds) {
          if (!(await this.anotherAdmin(trx, accountId, userId))) return 'last_admin';
        }
      }
      await trx
        .updateTable('account_members')
        .set({ suspended: suspended ? 1 : 0 })
        .where('account_id', 'in', accountIds)
        .where('user_id', '=', userId)
        .execute();
      return 'done';
    });
  }

  private async removeGroupMemberships(trx: Transaction<Database>, accountId: string, userId: string) {
    await trx
      .deleteFrom('group_members')
      .where('user_id', '=', userId)
      .where('group_id', 'in', (eb) =>
        eb.selectFrom('groups').select('uuid').where('account_id', '=', accountId),
      )
      .execute();
  }

  private async accountsOfIn(trx: Transaction<Database>, userId: string): Promise<string[]> {
    const rows = await trx
      .selectFrom('account_members')
      .select('account_id')
      .where('user_id', '=', userId)
      .orderBy('account_id')
      .execute();
    return rows.map((r) => r.account_id);
  }

  private guarded(accountIds: string[], work: (trx: Transaction<Database>) => Promise<Guarded>) {
    return this.db.transaction().execute(async (trx) => {
      await this.lockAccounts(trx, accountIds);
      return work(trx);
    });
  }

  /**
   * A no-op write to each account row: on PostgreSQL it holds the row's lock until commit, so
   * admin changes of one account run one after another; SQLite runs one writer at a time anyway.
   */
  private async lockAccounts(trx: Transaction<Database>, accountIds: string[]): Promise<void> {
    for (const id of [...accountIds].sort()) {
      await trx
        .updateTable('accounts')
        .set((eb) => ({ name: eb.ref('name') }))
        .where('uuid', '=', id)
        .execute();
    }
  }

  /** Is the user not an enabled admin of the account, or does another enabled admin remain? */
  private async anotherAdmin(
    trx: Transaction<Database>,
    accountId: string,
    userId: string,
  ): Promise<boolean> {
    const admins = await this.members(trx, accountId)
      .select('users.uuid')
      .where('account_members.role', '=', 'admin')
      .where('account_members.invited', '=', 0)
      .where('account_members.suspended', '=', 0)
      .where('users.status', '=', ACTIVE)
      .execute();
    if (!admins.some((a) => a.uuid === userId)) return true;
    return admins.length > 1;
  }
}

const USER_COLUMNS = [
  'users.uuid',
  'users.name',
  'users.first_name',
  'users.last_name',
  'users.email',
  'users.last_login',
  'account_members.role',
  'users.status',
  'account_members.role_id',
  'roles.name as role_name',
  'users.home_account_id',
  'account_members.invited',
  'account_members.suspended',
  'account_members.invited_name',
  sql<number>`case when users.password_hash = ${NO_PASSWORD_YET} then 1 else 0 end`.as('no_password'),
] as const;
