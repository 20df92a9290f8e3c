import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';

/**
 * The purge asks two questions often: which deleted studies are past retention (studies by
 * deleted time), and whether any instance still references a blob before its file is removed
 * (instances by blob_key; shared copies reuse their original's blobs).
 */
export const trashPurgeIndexes: Migration = {
  async up(db: Kysely<unknown>) {
    // Partial: only deleted rows, so the planner never picks it for searches of live studies
    // (`deleted is null`), which the partial search indexes serve.
    await db.schema
      .createIndex('studies_deleted')
      .on('studies')
      .column('deleted')
      .where(sql.ref('deleted'), 'is not', null)
      .execute();
    await db.schema.createIndex('instances_blob_key').on('instances').column('blob_key').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('instances_blob_key').execute();
    await db.schema.dropIndex('studies_deleted').execute();
  },
};
