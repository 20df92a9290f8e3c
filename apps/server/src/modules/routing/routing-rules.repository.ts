import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database, RoutingRuleTable } from '../../db/schema.js';

export type RoutingRuleRow = Selectable<RoutingRuleTable>;

/** Routing rules of accounts, read in sequence order (ties by creation). */
export class RoutingRulesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  ofAccount(accountId: string): Promise<RoutingRuleRow[]> {
    return this.db
      .selectFrom('routing_rules')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('sequence')
      .orderBy('created')
      .orderBy('uuid')
      .execute();
  }

  find(uuid: string): Promise<RoutingRuleRow | undefined> {
    return this.db.selectFrom('routing_rules').selectAll().where('uuid', '=', uuid).executeTakeFirst();
  }

  /** The next free sequence number of an account (after its last rule). */
  async nextSequence(accountId: string): Promise<number> {
    const row = await this.db
      .selectFrom('routing_rules')
      .select((eb) => eb.fn.max('sequence').as('last'))
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row?.last === null || row?.last === undefined ? 10 : Number(row.last) + 10;
  }

  async insert(row: Insertable<RoutingRuleTable>): Promise<void> {
    await this.db.insertInto('routing_rules').values(row).execute();
  }

  async update(uuid: string, changes: Updateable<RoutingRuleTable>): Promise<void> {
    await this.db.updateTable('routing_rules').set(changes).where('uuid', '=', uuid).execute();
  }

  async remove(uuid: string): Promise<void> {
    await this.db.deleteFrom('routing_rules').where('uuid', '=', uuid).execute();
  }
}
