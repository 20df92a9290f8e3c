import type { Kysely, Migration } from 'kysely';

/**
 * Report results received as HL7 ORU^R01 for an accession number: one per result (the filler's
 * order number), so a final result replaces the preliminary one it follows.
 */
export const hl7Results: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('hl7_results')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('accession_number', 'text', (c) => c.notNull())
      .addColumn('result_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('author', 'text', (c) => c.notNull())
      .addColumn('observed', 'bigint')
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('control_id', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('updated', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('hl7_results_result', ['account_id', 'accession_number', 'result_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('hl7_results').execute();
  },
};
