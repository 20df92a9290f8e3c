import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { GroupRow } from '../../repositories/accounts.repository.js';
import { isForeignKeyViolation } from '../../repositories/unique-violation.js';

export type AdminGroupRow = GroupRow & { members: number; studies: number };

export interface GroupMemberRow {
  uuid: string;
  name: string;
  email: string;
  role_id: string | null;
  role_name: string | null;
  /** JSON arrays: what the membership itself grants, and its role's permissions now. */
  permissions: string;
  role_permissions: string | null;
}

/** Why a group was not deleted: it holds studies, or something still delivers into it. */
export type GroupDeleted = 'done' | 'studies' | 'senders' | 'connections' | 'in_use';

/**
 * The groups of an account as its administrators change them: renaming (the group and its
 * namespace together), deleting an empty one with what only belongs to it, and its members with
 * the role each holds there.
 */
export class GroupAdminRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private counted(db: Kysely<Database>) {
    return db
      .selectFrom('groups')
      .selectAll('groups')
      .select([
        sql<number>`(select count(*) from group_members where group_members.group_id = groups.uuid)`.as(
          'members',
        ),
        sql<number>`(select count(*) from studies where studies.namespace_id = groups.namespace_id)`.as(
          'studies',
        ),
      ]);
  }

  async listOfAccount(accountId: string): Promise<AdminGroupRow[]> {
    const rows = await this.counted(this.db)
      .where('groups.account_id', '=', accountId)
      .orderBy(sql`lower(groups.name)`)
      .orderBy('groups.uuid')
      .execute();
    return rows.map(numbers);
  }

  async find(uuid: string): Promise<AdminGroupRow | undefined> {
    const row = await this.counted(this.db).where('groups.uuid', '=', uuid).executeTakeFirst();
    return row && numbers(row);
  }

  /** Another group of the account already has this name (any case)? */
  async nameTaken(accountId: string, name: string, exceptUuid?: string): Promise<boolean> {
    let q = this.db
      .selectFrom('groups')
      .select('uuid')
      .where('account_id', '=', accountId)
      .where(sql`lower(name)`, '=', name.toLowerCase());
    if (exceptUuid) q = q.where('uuid', '!=', exceptUuid);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async rename(group: GroupRow, name: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('groups').set({ name }).where('uuid', '=', group.uuid).execute();
      await trx.updateTable('namespaces').set({ name }).where('id', '=', group.namespace_id).execute();
    });
  }

  /**
   * Deletes a group that holds no study and that no DICOM sender or connection delivers into, with
   * its memberships, configuration, notification preferences and viewer tokens, in one transaction.
   */
  async remove(group: GroupRow): Promise<GroupDeleted> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const ns = group.namespace_id;
        const held = await trx
          .selectFrom('studies')
          .select('uuid')
          .where('namespace_id', '=', ns)
          .executeTakeFirst();
        if (held) return 'studies';
        const sender = await trx
          .selectFrom('dicom_nodes')
          .select('uuid')
          .where('group_uuid', '=', group.uuid)
          .executeTakeFirst();
        if (sender) return 'senders';
        const connection = await trx
          .selectFrom('connections')
          .select('uuid')
          .where('target_namespace_id', '=', ns)
          .executeTakeFirst();
        if (connection) return 'connections';
        await trx.deleteFrom('group_members').where('group_id', '=', group.uuid).execute();
        await trx.deleteFrom('group_configs').where('group_id', '=', group.uuid).execute();
        await trx.deleteFrom('user_events').where('namespace_id', '=', ns).execute();
        await trx.deleteFrom('viewer_tokens').where('namespace_id', '=', ns).execute();
        await trx.deleteFrom('groups').where('uuid', '=', group.uuid).execute();
        // Its share code goes with it, free for another owner.
        await trx.deleteFrom('share_codes').where('namespace_id', '=', ns).execute();
        await trx.deleteFrom('namespaces').where('id', '=', ns).execute();
        return 'done';
      });
    } catch (error) {
      // Something else still names the group (a request link, an e-mailed send): keep it.
      if (isForeignKeyViolation(error)) return 'in_use';
      throw error;
    }
  }

  /** The group's members; one whose invitation is pending shows the name the inviter typed (decision 0052). */
  members(groupId: string): Promise<GroupMemberRow[]> {
    const shownName = sql<string>`(case when account_members.invited = 1
      then coalesce(account_members.invited_name, users.email) else users.name end)`;
    return this.db
      .selectFrom('group_members')
      .innerJoin('users', 'users.uuid', 'group_members.user_id')
      .innerJoin('groups', 'groups.uuid', 'group_members.group_id')
      .leftJoin('account_members', (join) =>
        join
          .onRef('account_members.account_id', '=', 'groups.account_id')
          .onRef('account_members.user_id', '=', 'group_members.user_id'),
      )
      .leftJoin('roles', 'roles.uuid', 'group_members.role_id')
      .select([
        'users.uuid',
        shownName.as('name'),
        'users.email',
        'group_members.role_id',
        'roles.name as role_name',
        'group_members.permissions',
        'roles.permissions as role_permissions',
      ])
      .where('group_members.group_id', '=', groupId)
      .orderBy(sql`lower(${shownName})`)
      .orderBy('users.uuid')
      .execute();
  }

  /** Makes the user a member holding the role, or changes the role of a member already in the group. */
  async setMember(groupId: string, userId: string, roleId: string): Promise<void> {
    await this.db
      .insertInto('group_members')
      .values({ group_id: groupId, user_id: userId, permissions: '[]', role_id: roleId })
      .onConflict((oc) => oc.columns(['group_id', 'user_id']).doUpdateSet({ role_id: roleId }))
      .execute();
  }

  /** Takes the user out of the group; false when they were not in it. */
  async removeMember(groupId: string, userId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('group_members')
      .where('group_id', '=', groupId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

const numbers = <T extends { members: number | string; studies: number | string }>(row: T) => ({
  ...row,
  members: Number(row.members),
  studies: Number(row.studies),
});
