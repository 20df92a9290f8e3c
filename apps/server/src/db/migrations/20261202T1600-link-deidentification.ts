import type { Kysely, Migration } from 'kysely';

/**
 * A request link may de-identify what is uploaded through it (issue 33, decision 0071): a profile
 * of the link's account, applied before a file is stored in the link's group; null: none.
 */
export const linkDeidentification: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('links').addColumn('anonymization_id', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('links').dropColumn('anonymization_id').execute();
  },
};
