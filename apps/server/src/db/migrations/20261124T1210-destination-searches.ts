import type { Kysely, Migration } from 'kysely';

/**
 * Destination searches (C-FIND as a job) and what they found: the state lives here so any server
 * process answers the poll. Deleting a destination deletes its searches.
 */
export const destinationSearches: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('destination_searches')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('destination_id', 'text', (c) =>
        c.notNull().references('destinations.uuid').onDelete('cascade'),
      )
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.uuid'))
      /** copy_to: the group namespace retrieved studies go into. */
      .addColumn('namespace_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      /** The query as asked (JSON), kept for the job and the record. */
      .addColumn('query', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('truncated', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('updated', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('destination_search_results')
      .addColumn('search_id', 'text', (c) =>
        c.notNull().references('destination_searches.uuid').onDelete('cascade'),
      )
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('study_uid', 'text', (c) => c.notNull())
      .addColumn('patient_name', 'text', (c) => c.notNull())
      .addColumn('patient_birth_date', 'text', (c) => c.notNull())
      .addColumn('patient_sex', 'text', (c) => c.notNull())
      .addColumn('patientid', 'text', (c) => c.notNull())
      .addColumn('accession_number', 'text', (c) => c.notNull())
      .addColumn('study_date', 'text', (c) => c.notNull())
      .addColumn('study_description', 'text', (c) => c.notNull())
      .addColumn('modality', 'text', (c) => c.notNull())
      .addColumn('source_ae', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('destination_search_results_pk', ['search_id', 'study_uid'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('destination_search_results').execute();
    await db.schema.dropTable('destination_searches').execute();
  },
};
