import type { Kysely, Migration } from 'kysely';

/**
 * More AE titles of this product's own DICOM listener, each feeding one group: what is sent to
 * that AE title is stored there. The demo's 'PACS Archive' is one: a destination pointing at our
 * own listener under it stands in for a PACS with no outside system.
 */
export const localAeTitles: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('local_ae_titles')
      .addColumn('ae_title', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('group_uuid', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('local_ae_titles').execute();
  },
};
