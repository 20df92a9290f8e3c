import type { Kysely, Migration } from 'kysely';

/**
 * Registered DICOM senders (modalities, gateways, PACS): the calling AE title and host an
 * association must come from, and the group its instances are delivered into.
 */
export const dicomNodes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('dicom_nodes')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.uuid'))
      .addColumn('ae_title', 'text', (c) => c.notNull().unique())
      .addColumn('host', 'text', (c) => c.notNull())
      .addColumn('group_uuid', 'text', (c) => c.notNull().references('groups.uuid'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('dicom_nodes_account').on('dicom_nodes').column('account_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('dicom_nodes').execute();
  },
};
