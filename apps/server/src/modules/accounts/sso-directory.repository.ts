import type { Insertable, Kysely } from 'kysely';
import type { Database, UserTable } from '../../db/schema.js';

/** A member of an account as a sign-in through its provider reads it. */
export interface SsoMember {
  role: string;
  role_id: string | null;
  invited: number;
  suspended: number;
}

/**
 * What a sign-in through a provider changes of the directory: a new person made just in time, the
 * name and e-mail refreshed, and the roles and groups given by the provider's role claim.
 */
export class SsoDirectoryRepository {
  constructor(private readonly db: Kysely<Database>) {}

  member(accountId: string, userId: string): Promise<SsoMember | undefined> {
    return this.db
      .selectFrom('account_members')
      .select(['role', 'role_id', 'invited', 'suspended'])
      .where('account_id', '=', accountId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** The person a provider's subject signed in before, in this account. */
  async identity(accountId: string, subject: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('sso_identities')
      .select('user_id')
      .where('account_id', '=', accountId)
      .where('subject', '=', subject)
      .executeTakeFirst();
    return row?.user_id;
  }

  async linkIdentity(accountId: string, subject: string, userId: string): Promise<void> {
    await this.db
      .insertInto('sso_identities')
      .values({ account_id: accountId, subject, user_id: userId })
      .onConflict((oc) => oc.columns(['account_id', 'subject']).doUpdateSet({ user_id: userId }))
      .execute();
  }

  /** A new person and their membership of the account holding `roleId`, in one transaction. */
  async createMember(user: Insertable<UserTable>, accountId: string, roleId: string | null): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.insertInto('users').values(user).execute();
      await tx
        .insertInto('account_members')
        .values({
          account_id: accountId,
          user_id: user.uuid,
          role: 'member',
          permissions: '[]',
          role_id: roleId,
        })
        .execute();
    });
  }

  async refreshNames(userId: string, email: string, first: string, last: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ email, first_name: first, last_name: last, name: `${first} ${last}`.trim() })
      .where('uuid', '=', userId)
      .execute();
  }

  async setAccountRole(accountId: string, userId: string, roleId: string | null): Promise<void> {
    await this.db
      .updateTable('account_members')
      .set({ role_id: roleId, permissions: '[]' })
      .where('account_id', '=', accountId)
      .where('user_id', '=', userId)
      .execute();
  }

  /** The user's memberships among these groups: group → role. */
  async groupRoles(userId: string, groupIds: string[]): Promise<Map<string, string | null>> {
    if (!groupIds.length) return new Map();
    const rows = await this.db
      .selectFrom('group_members')
      .select(['group_id', 'role_id'])
      .where('user_id', '=', userId)
      .where('group_id', 'in', groupIds)
      .execute();
    return new Map(rows.map((r) => [r.group_id, r.role_id]));
  }

  /** Sets the user's memberships of the mapped groups: `wanted` group → role; the others removed. */
  async setGroupRoles(userId: string, mapped: string[], wanted: Map<string, string>): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      for (const groupId of mapped) {
        const roleId = wanted.get(groupId);
        await tx
          .deleteFrom('group_members')
          .where('user_id', '=', userId)
          .where('group_id', '=', groupId)
          .execute();
        if (roleId !== undefined) {
          await tx
            .insertInto('group_members')
            .values({ group_id: groupId, user_id: userId, permissions: '[]', role_id: roleId })
            .execute();
        }
      }
    });
  }

  /** The account's roles and groups among these ids (a map naming another account's is refused). */
  async ownedBy(accountId: string, roleIds: string[], groupIds: string[]) {
    const roles = roleIds.length
      ? await this.db
          .selectFrom('roles')
          .select('uuid')
          .where('account_id', '=', accountId)
          .where('uuid', 'in', roleIds)
          .execute()
      : [];
    const groups = groupIds.length
      ? await this.db
          .selectFrom('groups')
          .select('uuid')
          .where('account_id', '=', accountId)
          .where('uuid', 'in', groupIds)
          .execute()
      : [];
    return { roles: new Set(roles.map((r) => r.uuid)), groups: new Set(groups.map((g) => g.uuid)) };
  }
}
