import type { Kysely, Migration } from 'kysely';

/**
 * The groups a de-identification profile applies to (decision 0067): what is shared into one of
 * them is stored as a de-identified copy. A JSON array of group uuids; a group is in one profile at
 * most (the service checks it).
 */
export const anonymizationGroups: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('anonymization_profiles')
      .addColumn('groups', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('anonymization_profiles').dropColumn('groups').execute();
  },
};
