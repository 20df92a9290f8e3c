import type { Insertable, Kysely, Selectable } from 'kysely';
import type { CustomFieldTable, Database } from '../../db/schema.js';

export type CustomFieldRow = Selectable<CustomFieldTable>;

/** Custom field definitions of accounts, in display order. */
export class CustomFieldsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: Insertable<CustomFieldTable>): Promise<void> {
    await this.db.insertInto('custom_fields').values(row).execute();
  }

  /** The account's fields for an object, optionally only those uuids, by display order then name. */
  list(accountId: string, options: { object?: string; uuids?: string[] } = {}): Promise<CustomFieldRow[]> {
    if (options.uuids && !options.uuids.length) return Promise.resolve([]);
    let query = this.db.selectFrom('custom_fields').selectAll().where('account_id', '=', accountId);
    if (options.object) query = query.where('object', '=', options.object);
    if (options.uuids) query = query.where('uuid', 'in', options.uuids);
    return query.orderBy('display_order').orderBy('name').execute();
  }

  find(uuid: string): Promise<CustomFieldRow | undefined> {
    return this.db.selectFrom('custom_fields').selectAll().where('uuid', '=', uuid).executeTakeFirst();
  }

  /** The next display order of the account's fields for an object (after the last one). */
  async nextOrder(accountId: string, object: string): Promise<number> {
    const row = await this.db
      .selectFrom('custom_fields')
      .select((eb) => eb.fn.max('display_order').as('last'))
      .where('account_id', '=', accountId)
      .where('object', '=', object)
      .executeTakeFirst();
    return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
  }

  async update(uuid: string, change: { name?: string; required?: number; options?: string }): Promise<void> {
    await this.db.updateTable('custom_fields').set(change).where('uuid', '=', uuid).execute();
  }

  /** Removes the definition and every study's value of it (values are keyed by its uuid), together. */
  async remove(uuid: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('study_customfields').where('name', '=', uuid).execute();
      await trx.deleteFrom('custom_fields').where('uuid', '=', uuid).execute();
    });
  }
}
