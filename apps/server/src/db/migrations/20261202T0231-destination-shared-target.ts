import type { Kysely, Migration } from 'kysely';

/**
 * A destination's PACS target (address, port, AE title) belongs to one account: another account
 * registering the same target is refused unless a system administrator marked it shared (1).
 */
export const destinationSharedTarget: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('destinations')
      .addColumn('shared_target', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('destinations').dropColumn('shared_target').execute();
  },
};
