import type { Kysely, Migration } from 'kysely';

/**
 * Studies received from a DICOM sender whose "harvested from gateway" mail is still to be sent.
 * One row per study, written when its first instance arrives; the mail leaves once the study has
 * been quiet for a while, so a study of many instances gives one mail. A row survives a restart.
 */
export const harvestNotices: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('harvest_notices')
      .addColumn('study_uuid', 'text', (c) => c.primaryKey().references('studies.uuid').onDelete('cascade'))
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('namespace_id', 'text', (c) => c.notNull())
      .addColumn('source_ae_title', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('due_at', 'bigint', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('harvest_notices_due').on('harvest_notices').column('due_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('harvest_notices').execute();
  },
};
