import type { Kysely, Migration } from 'kysely';

/**
 * Stored files found unreferenced while still inside the collector's grace period: removed by a
 * later collector run once `due` has passed, if still unreferenced and not written again.
 */
export const blobRemovals: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('blob_removals')
      .addColumn('blob_key', 'text', (c) => c.primaryKey())
      .addColumn('due', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('blob_removals_due').on('blob_removals').column('due').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('blob_removals').execute();
  },
};
