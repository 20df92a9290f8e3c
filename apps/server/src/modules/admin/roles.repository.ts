import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Database, RoleTable } from '../../db/schema.js';

export type RoleRow = Selectable<RoleTable> & { holders: number };

/** A change refused because members still hold the role. */
export type RoleDeleted = 'done' | 'held';

/** Roles of an account: named permission sets held by account and group memberships. */
export class RolesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private withHolders(db: Kysely<Database>) {
    return db
      .selectFrom('roles')
      .selectAll('roles')
      .select(
        sql<number>`(select count(*) from account_members where account_members.role_id = roles.uuid)
          + (select count(*) from group_members where group_members.role_id = roles.uuid)`.as('holders'),
      );
  }

  async list(accountId: string): Promise<RoleRow[]> {
    const rows = await this.withHolders(this.db)
      .where('roles.account_id', '=', accountId)
      .orderBy(sql`lower(roles.name)`)
      .orderBy('roles.uuid')
      .execute();
    return rows.map(counted);
  }

  async find(uuid: string): Promise<RoleRow | undefined> {
    const row = await this.withHolders(this.db).where('roles.uuid', '=', uuid).executeTakeFirst();
    return row && counted(row);
  }

  /** Throws the unique violation of (account, name) when the name is taken. */
  async add(role: Selectable<RoleTable>): Promise<void> {
    await this.db.insertInto('roles').values(role).execute();
  }

  async set(uuid: string, change: { name?: string; permissions?: string }): Promise<void> {
    await this.db.updateTable('roles').set(change).where('uuid', '=', uuid).execute();
  }

  /** Deletes the role unless a membership holds it; the check and the delete are one transaction. */
  remove(uuid: string): Promise<RoleDeleted> {
    return this.db.transaction().execute(async (trx) => {
      // Lock the role row first (PostgreSQL), so a membership cannot take it between check and delete.
      await trx
        .updateTable('roles')
        .set((eb) => ({ name: eb.ref('name') }))
        .where('uuid', '=', uuid)
        .execute();
      const row = await this.withHolders(trx).where('roles.uuid', '=', uuid).executeTakeFirst();
      if (row && Number(row.holders) > 0) return 'held';
      await trx.deleteFrom('roles').where('uuid', '=', uuid).execute();
      return 'done';
    });
  }
}

const counted = <T extends { holders: number | string }>(row: T) => ({
  ...row,
  holders: Number(row.holders),
});
