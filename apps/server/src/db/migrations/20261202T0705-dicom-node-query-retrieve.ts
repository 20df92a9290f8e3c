import type { Kysely, Migration } from 'kysely';

/**
 * A registered DICOM node as a query/retrieve peer (issue 31, decision 0061): the groups it may
 * query (a JSON array of group uuids, none by default), whether it may retrieve (C-MOVE, C-GET),
 * and the port it listens on as a C-MOVE destination (null: it is not one).
 */
export const dicomNodeQueryRetrieve: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('dicom_nodes')
      .addColumn('query_groups', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
    await db.schema
      .alterTable('dicom_nodes')
      .addColumn('may_retrieve', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('dicom_nodes').addColumn('port', 'integer').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('dicom_nodes').dropColumn('port').execute();
    await db.schema.alterTable('dicom_nodes').dropColumn('may_retrieve').execute();
    await db.schema.alterTable('dicom_nodes').dropColumn('query_groups').execute();
  },
};
