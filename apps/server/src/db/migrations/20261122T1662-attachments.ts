import type { Kysely, Migration } from 'kysely';

/**
 * Files attached to a study. An attachment (`id`) is one file name within the study; uploading
 * the same name again adds a version. The bytes live in the blob store under `blob_key`.
 */
export const attachments: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('attachments')
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('study_uuid', 'text', (c) => c.notNull().references('studies.uuid').onDelete('cascade'))
      .addColumn('filename', 'text', (c) => c.notNull())
      .addColumn('mime', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('blob_key', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text')
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('attachments_pk', ['id', 'version'])
      .addUniqueConstraint('attachments_study_name_version', ['study_uuid', 'filename', 'version'])
      .execute();
    await db.schema
      .createIndex('attachments_study_created')
      .on('attachments')
      .columns(['study_uuid', 'created'])
      .execute();
    // The blob collector asks whether any row still uses a file.
    await db.schema.createIndex('attachments_blob').on('attachments').column('blob_key').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('attachments').execute();
  },
};
