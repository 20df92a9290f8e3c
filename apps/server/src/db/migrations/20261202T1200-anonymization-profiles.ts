import type { Kysely, Migration } from 'kysely';

/**
 * An account's de-identification profiles (anonymization/*, issue 33, decision 0067): a name, the
 * PS3.15 Annex E options chosen (JSON array), per-field rules (JSON array), whether instances that
 * may carry burned-in text and a study's attachments pass to a de-identified target. No secret and
 * no pseudonym is stored here: they derive from a key outside the database (decision 0067).
 */
export const anonymizationProfiles: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('anonymization_profiles')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.uuid'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('options', 'text', (c) => c.notNull())
      .addColumn('rules', 'text', (c) => c.notNull())
      .addColumn('keep_burned_in', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('keep_attachments', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('updated', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('anonymization_profiles_account')
      .on('anonymization_profiles')
      .column('account_id')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('anonymization_profiles').execute();
  },
};
