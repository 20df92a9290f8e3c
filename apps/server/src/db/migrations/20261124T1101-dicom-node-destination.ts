import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import { isPostgres } from './helpers.js';

/**
 * A registered sender may belong to a destination (its PACS sends C-MOVE deliveries back) and then
 * has no group of its own: group_uuid becomes optional and destination_id names the destination.
 * SQLite cannot drop a NOT NULL, so there the table is rebuilt with its rows (nothing references it).
 */
export const dicomNodeDestination: Migration = {
  async up(db: Kysely<unknown>) {
    if (isPostgres(db)) {
      await db.schema
        .alterTable('dicom_nodes')
        .alterColumn('group_uuid', (c) => c.dropNotNull())
        .execute();
      await db.schema
        .alterTable('dicom_nodes')
        .addColumn('destination_id', 'text', (c) => c.references('destinations.uuid').onDelete('cascade'))
        .execute();
      return;
    }
    await db.schema
      .createTable('dicom_nodes_new')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.uuid'))
      .addColumn('ae_title', 'text', (c) => c.notNull().unique())
      .addColumn('host', 'text', (c) => c.notNull())
      .addColumn('group_uuid', 'text', (c) => c.references('groups.uuid'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('destination_id', 'text', (c) => c.references('destinations.uuid').onDelete('cascade'))
      .execute();
    await sql`INSERT INTO dicom_nodes_new (uuid, account_id, ae_title, host, group_uuid, name, created)
      SELECT uuid, account_id, ae_title, host, group_uuid, name, created FROM dicom_nodes`.execute(db);
    await db.schema.dropTable('dicom_nodes').execute();
    await db.schema.alterTable('dicom_nodes_new').renameTo('dicom_nodes').execute();
    await db.schema.createIndex('dicom_nodes_account').on('dicom_nodes').column('account_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('dicom_nodes').dropColumn('destination_id').execute();
  },
};
