import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export interface AccountMembership {
  account_id: string;
  role: string;
  permissions: string[];
}

export interface GroupMembership {
  group_id: string;
  account_id: string;
  namespace_id: string;
  name: string;
  type: string;
  permissions: string[];
}

const parseList = (json: string): string[] => {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.map(String) : [];
};

/** Who belongs to which account and group, with the permissions each membership grants. */
export class MembershipsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async accountMemberships(userId: string): Promise<AccountMembership[]> {
    const rows = await this.db
      .selectFrom('account_members')
      .select(['account_id', 'role', 'permissions'])
      .where('user_id', '=', userId)
      .execute();
    return rows.map((r) => ({ ...r, permissions: parseList(r.permissions) }));
  }

  async groupMemberships(userId: string): Promise<GroupMembership[]> {
    const rows = await this.db
      .selectFrom('group_members')
      .innerJoin('groups', 'groups.uuid', 'group_members.group_id')
      .select([
        'groups.uuid as group_id',
        'groups.account_id',
        'groups.namespace_id',
        'groups.name',
        'groups.type',
        'group_members.permissions',
      ])
      .where('group_members.user_id', '=', userId)
      .execute();
    return rows.map((r) => ({ ...r, permissions: parseList(r.permissions) }));
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
