import { USER_NAME_MAX_LENGTH } from '@imaging-inbox/contract';
import type { AccountRole, AccountUser, AccountUserPage } from '@imaging-inbox/contract';
import { DomainError, invalidField, missingFields, notFound } from '../domain/errors.js';
import type { Caller } from '../policies/index.js';
import { requireAccountUsers, requireManagedUser } from '../policies/index.js';
import type {
  AccountUserQuery,
  AccountUserRow,
  AccountUsersRepository,
  Guarded,
} from '../repositories/account-users.repository.js';
import type { AuditService } from './audit.service.js';

interface Deps {
  users: AccountUsersRepository;
  audit: AuditService;
}

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
    fields: { name?: string | undefined; role?: AccountRole | undefined },
  ): Promise<AccountUser> {
    requireAccountUsers(caller, accountId, 'edit');
    const before = await this.member(accountId, userId);
    if (fields.name === undefined && fields.role === undefined) throw missingFields(['name', 'role']);
    let name: ReturnType<typeof splitName> | undefined;
    if (fields.name !== undefined) {
      name = splitName(fields.name);
      if (!name.name) throw invalidField('name', 'must not be blank');
      if (name.name.length > USER_NAME_MAX_LENGTH) {
        throw invalidField('name', `must be at most ${USER_NAME_MAX_LENGTH} characters`);
      }
    }
    refuseLastAdmin(
      await this.deps.users.set(accountId, userId, {
        ...(name ? { name } : {}),
        ...(fields.role ? { role: fields.role } : {}),
      }),
    );
    const after = await this.member(accountId, userId);
    await this.record(caller, accountId, 'EDIT', userId, {
      before: { name: before.name, role: before.role },
      after: { name: after.name, role: after.role },
    });
    return present(after);
  }

  async remove(caller: Caller, accountId: string, userId: string): Promise<void> {
    requireAccountUsers(caller, accountId, 'edit');
    const before = await this.member(accountId, userId);
    refuseLastAdmin(await this.deps.users.remove(accountId, userId));
    await this.record(caller, accountId, 'DELETE', userId, { email: before.email, role: before.role });
  }

  /** Enables or disables a user the caller manages; disabling ends their sessions at once. */
  async enable(caller: Caller, userId: string, enabled: boolean): Promise<void> {
    const managed = requireManagedUser(caller, await this.deps.users.accountsOf(userId));
    refuseLastAdmin(await this.deps.users.setEnabled(userId, enabled));
    for (const accountId of managed) {
      await this.record(caller, accountId, enabled ? 'ENABLE' : 'DISABLE', userId, null);
    }
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
    return this.deps.audit.record({
      userId: caller.user.uuid,
      accountId,
      action,
      objectType: 'USER',
      objectId: userId,
      detail,
      ip: caller.ip,
    });
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
    enabled: row.status === 'ACTIVE' ? 1 : 0,
  };
}
