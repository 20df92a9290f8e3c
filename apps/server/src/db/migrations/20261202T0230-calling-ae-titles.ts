import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';

/**
 * The AE titles this product calls PACS destinations as, one per account (destination_id null) and
 * optionally one per destination overriding its account's. Its primary key is the normalised title
 * (trimmed, upper case), so no two accounts or destinations present the same AE title in any case
 * or padding, on either database, even when they write at once. A PACS sends C-MOVE deliveries back
 * to that AE title, and our listener routes them by it (decision 0054). Rows are written when an
 * account first calls a PACS or shows its AE title (services/calling-ae-titles.service.ts), so this
 * migration only creates the table.
 */
export const callingAeTitles: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('calling_ae_titles')
      .addColumn('ae_key', 'text', (c) => c.primaryKey())
      .addColumn('ae_title', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('destination_id', 'text', (c) => c.unique())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
    // One account-wide AE title per account.
    await db.schema
      .createIndex('calling_ae_titles_account')
      .on('calling_ae_titles')
      .column('account_id')
      .unique()
      .where(sql.ref('destination_id'), 'is', null)
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('calling_ae_titles').execute();
  },
};
