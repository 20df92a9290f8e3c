import type { GroupType } from '@imaging-inbox/contract';
import type { Kysely, RawBuilder } from 'kysely';
import { sql } from 'kysely';
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
  type: GroupType;
  permissions: string[];
  role_id: string | null;
  role_permissions: string[] | null;
}

/** Everything a caller's access is built from, read in one statement (see `accessOf`). */
export interface AccessRows {
  accounts: AccountMembership[];
  groups: GroupMembership[];
  personal: { id: string; account_id: string; name: string }[];
  /** Every group of each account the user administers. */
  administered: {
    group_id: string;
    account_id: string;
    namespace_id: string;
    name: string;
    type: GroupType;
  }[];
}

interface AccessUnionRow {
  kind: 'account' | 'group' | 'personal' | 'administered';
  account_id: string;
  role: string | null;
  permissions: string | null;
  role_id: string | null;
  role_permissions: string | null;
  group_id: string | null;
  namespace_id: string | null;
  name: string | null;
  type: GroupType | null;
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

  /**
   * The user's account and group memberships (with their roles' permissions as they are now): only
   * accepted, unsuspended account memberships count, and no group of an account whose membership
   * is pending or suspended (decision 0052),
   * personal namespaces and the groups of the accounts they administer: what every signed-in call
   * needs, as one statement instead of four round trips.
   */
  accessOf(userId: string): Promise<AccessRows> {
    return this.readAccess(sql`select cast(${userId} as text) as user_id`);
  }

  /**
   * The same, for the user of a session (by its sid hash), so that it can be read side by side
   * with the session itself; no rows when there is no such session. Whether the session is still
   * valid is for its caller to judge before using them.
   */
  accessOfSession(sidHash: string): Promise<AccessRows> {
    return this.readAccess(sql`select user_id from sessions where sid_hash = ${sidHash}`);
  }

  private async readAccess(who: RawBuilder<unknown>): Promise<AccessRows> {
    const { rows } = await sql<AccessUnionRow>`
      with who as (${who})
      select 'account' as kind, am.account_id, am.role, am.permissions, am.role_id,
             r.permissions as role_permissions, null as group_id, null as namespace_id, null as name, null as type
        from account_members am left join roles r on r.uuid = am.role_id
       where am.user_id = (select user_id from who) and am.invited = 0 and am.suspended = 0
      union all
      select 'group', g.account_id, null, gm.permissions, gm.role_id,
             r.permissions, g.uuid, g.namespace_id, g.name, g.type
        from group_members gm join groups g on g.uuid = gm.group_id left join roles r on r.uuid = gm.role_id
       where gm.user_id = (select user_id from who)
         and not exists (select 1 from account_members x
                          where x.account_id = g.account_id and x.user_id = gm.user_id
                            and (x.invited = 1 or x.suspended = 1))
      union all
      select 'personal', n.account_id, null, null, null, null, null, n.id, n.name, null
        from namespaces n
       where n.owner_user_id = (select user_id from who)
      union all
      select 'administered', g.account_id, null, null, null, null, g.uuid, g.namespace_id, g.name, g.type
        from groups g
       where g.account_id in (select a.account_id from account_members a
                               where a.user_id = (select user_id from who) and a.role = 'admin'
                                 and a.invited = 0 and a.suspended = 0)
    `.execute(this.db);
    const access: AccessRows = { accounts: [], groups: [], personal: [], administered: [] };
    for (const row of rows) {
      if (row.kind === 'account') {
        access.accounts.push(
          parsed({
            account_id: row.account_id,
            role: row.role ?? '',
            permissions: row.permissions ?? '[]',
            role_id: row.role_id,
            role_permissions: row.role_permissions,
          }),
        );
      } else if (row.kind === 'group') {
        access.groups.push(
          parsed({
            group_id: row.group_id!,
            account_id: row.account_id,
            namespace_id: row.namespace_id!,
            name: row.name!,
            type: row.type!,
            permissions: row.permissions ?? '[]',
            role_id: row.role_id,
            role_permissions: row.role_permissions,
          }),
        );
      } else if (row.kind === 'personal') {
        access.personal.push({ id: row.namespace_id!, account_id: row.account_id, name: row.name! });
      } else {
        access.administered.push({
          group_id: row.group_id!,
          account_id: row.account_id,
          namespace_id: row.namespace_id!,
          name: row.name!,
          type: row.type!,
        });
      }
    }
    return access;
  }

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
    roleId: string | null = null,
  ): Promise<void> {
    await this.db
      .insertInto('account_members')
      .values({
        account_id: accountId,
        user_id: userId,
        role,
        permissions: JSON.stringify(permissions),
        role_id: roleId,
      })
      .execute();
  }

  /** A group membership granting `permissions`, or, with `roleId`, that role's permissions as they are now. */
  async addGroupMember(
    groupId: string,
    userId: string,
    permissions: string[],
    roleId: string | null = null,
  ): Promise<void> {
    await this.db
      .insertInto('group_members')
      .values({
        group_id: groupId,
        user_id: userId,
        permissions: JSON.stringify(permissions),
        role_id: roleId,
      })
      .execute();
  }
}
