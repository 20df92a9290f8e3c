import type { Insertable, Kysely, Selectable } from 'kysely';
import type { CustomFieldTable, Database } from '../db/schema.js';

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
}
