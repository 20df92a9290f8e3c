import type { Kysely, Migration } from 'kysely';

/**
 * Nominations of a cloud group's study to a gatekeeper group: the submission (who, from where,
 * when, the form's answers), the gatekeeper's copy it shared (must_approve=1 until processed), and
 * the outcome (rejected with reason and message). Cancelling keeps the row (submitted=0) for the
 * nominator's history.
 */
export const nominations: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('nominations')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('study_uuid', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('gatekeeper_id', 'text', (c) => c.notNull())
      .addColumn('gatekeeper_name', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('copy_uuid', 'text')
      .addColumn('submitted', 'integer', (c) => c.notNull())
      .addColumn('rejected', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('rejection_reason', 'text')
      .addColumn('rejection_message', 'text')
      .addColumn('answers', 'text', (c) => c.notNull())
      .addColumn('nominated_by', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('updated', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('nominations_study')
      .on('nominations')
      .columns(['study_uuid', 'created'])
      .execute();
    await db.schema.createIndex('nominations_copy').on('nominations').column('copy_uuid').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('nominations').execute();
  },
};
