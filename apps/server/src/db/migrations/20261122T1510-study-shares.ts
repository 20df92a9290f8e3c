import type { Kysely, Migration } from 'kysely';

/**
 * Who a study was shared with inside its account. A group share points at the copy of the study's
 * index rows made in the group's namespace (copy_uuid), so stopping it removes that copy; a user
 * share has no copy (see services/share.service.ts).
 */
export const studyShares: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('study_shares')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('study_uuid', 'text', (c) => c.notNull().references('studies.uuid').onDelete('cascade'))
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.uuid'))
      .addColumn('target_type', 'text', (c) => c.notNull())
      .addColumn('target_id', 'text', (c) => c.notNull())
      .addColumn('copy_uuid', 'text')
      .addColumn('message', 'text')
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('study_shares_target', ['study_uuid', 'target_type', 'target_id'])
      .execute();
    await db.schema
      .createIndex('study_shares_target_id')
      .on('study_shares')
      .columns(['target_type', 'target_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('study_shares').execute();
  },
};
