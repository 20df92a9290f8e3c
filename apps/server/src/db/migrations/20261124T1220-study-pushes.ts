import type { Kysely, Migration } from 'kysely';

/**
 * Pushes of a study to a destination, one row per attempt (status I/N/P/S/F, reason, counts), and
 * each instance's outcome within its attempt, so a resumed push sends only what is not yet stored.
 * The destination's name is kept with the attempt: the history outlives a deleted destination.
 */
export const studyPushes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('study_pushes')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('study_uuid', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('destination_id', 'text', (c) => c.notNull())
      .addColumn('destination_name', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('image_count', 'integer', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('updated', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('study_pushes_study')
      .on('study_pushes')
      .columns(['study_uuid', 'created'])
      .execute();
    await db.schema
      .createTable('study_push_instances')
      .addColumn('push_id', 'text', (c) => c.notNull().references('study_pushes.uuid').onDelete('cascade'))
      .addColumn('sop_instance_uid', 'text', (c) => c.notNull())
      .addColumn('blob_key', 'text', (c) => c.notNull())
      .addColumn('sop_class_uid', 'text', (c) => c.notNull())
      .addColumn('transfer_syntax', 'text', (c) => c.notNull())
      /** pending → stored | failed (failed: the destination refused it as it is). */
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('study_push_instances_pk', ['push_id', 'sop_instance_uid'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('study_push_instances').execute();
    await db.schema.dropTable('study_pushes').execute();
  },
};
