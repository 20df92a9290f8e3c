import type { Kysely, Migration } from 'kysely';

/**
 * The recovery scan after an unclean stop asks for the newest instance row and the rows written
 * since a time; on millions of instances both must be index lookups, not table scans, so start-up
 * stays fast. The key only grows, so each insert appends at the index's right edge.
 */
export const instancesCreatedIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('instances_created').on('instances').column('created').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('instances_created').execute();
  },
};
