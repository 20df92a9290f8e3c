import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export interface AccountMembership {
  account_id: string;
  role: string;
  /** What the membership itself grants (used when it holds no role). */
  permissions: string[];
  role_id: string | null;
  /** The held role's permissions as they are now; null without a role. */
  role_permissions: string[] | null;
}

export interface GroupMembership {
  group_id: string;
  account_id: string;
  namespace_id: string;
  name: string;
  type: string;
  permissions: string[];
  role_id: string | null;
  role_permissions: string[] | null;
}

const parseList = (json: string): string[] => {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.map(String) : [];
};

const parsed = <T extends { permissions: string; role_permissions: string | null }>(row: T) => ({
  ...row,
  permissions: parseList(row.permissions),
  role_permissions: row.role_permissions === null ? null : parseList(row.role_permissions),
});

/** Who belongs to which account and group, with the permissions each membership grants. */
export class MembershipsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async accountMemberships(userId: string): Promise<AccountMembership[]> {
    const rows = await this.db
      .selectFrom('account_members')
      .leftJoin('roles', 'roles.uuid', 'account_members.role_id')
      .select([
        'account_members.account_id',
        'account_members.role',
        'account_members.permissions',
        'account_members.role_id',
        'roles.permissions as role_permissions',
      ])
      .where('account_members.user_id', '=', userId)
      .execute();
    return rows.map(parsed);
  }

  async groupMemberships(userId: string): Promise<GroupMembership[]> {
    const rows = await this.db
      .selectFrom('group_members')
      .innerJoin('groups', 'groups.uuid', 'group_members.group_id')
      .leftJoin('roles', 'roles.uuid', 'group_members.role_id')
      .select([
        'groups.uuid as group_id',
        'groups.account_id',
        'groups.namespace_id',
        'groups.name',
        'groups.type',
        'group_members.permissions',
        'group_members.role_id',
        'roles.permissions as role_permissions',
      ])
      .where('group_members.user_id', '=', userId)
      .execute();
    return rows.map(parsed);
  }

  /** The user's personal namespaces (one per account where something was shared with them). */
  personalNamespaces(userId: string): Promise<{ id: string; account_id: string; name: string }[]> {
    return this.db
      .selectFrom('namespaces')
      .select(['id', 'account_id', 'name'])
      .where('owner_user_id', '=', userId)
      .execute();
  }

  async addAccountMember(
    accountId: string,
    userId: string,
    role: string,
    permissions: string[],
  ): Promise<void> {
    await this.db
      .insertInto('account_members')
      .values({ account_id: accountId, user_id: userId, role, permissions: JSON.stringify(permissions) })
      .execute();
  }

  async addGroupMember(groupId: string, userId: string, permissions: string[]): Promise<void> {
    await this.db
      .insertInto('group_members')
      .values({ group_id: groupId, user_id: userId, permissions: JSON.stringify(permissions) })
      .execute();
  }
}
