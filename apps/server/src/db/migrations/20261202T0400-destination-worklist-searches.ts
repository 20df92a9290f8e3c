import type { Kysely, Migration } from 'kysely';

/**
 * A destination search is a study search or a worklist search (destination/search/mwl, `mwl`); a
 * worklist search's items are kept in their own table, one row per scheduled procedure step found.
 */
export const destinationWorklistSearches: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('destination_searches')
      .addColumn('kind', 'text', (c) => c.notNull().defaultTo('study'))
      .execute();
    let table = db.schema
      .createTable('destination_worklist_items')
      .addColumn('search_id', 'text', (c) =>
        c.notNull().references('destination_searches.uuid').onDelete('cascade'),
      )
      .addColumn('seq', 'integer', (c) => c.notNull());
    for (const column of [
      'accession_number',
      'patient_name',
      'patientid',
      'patient_birth_date',
      'patient_sex',
      'referring_physician',
      'order_number',
      'requested_procedure',
      'study_uid',
      'modality',
      'scheduled_date',
      'scheduled_time',
      'scheduled_station_ae',
    ]) {
      table = table.addColumn(column, 'text', (c) => c.notNull());
    }
    await table.addPrimaryKeyConstraint('destination_worklist_items_pk', ['search_id', 'seq']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('destination_worklist_items').execute();
    await db.schema.alterTable('destination_searches').dropColumn('kind').execute();
  },
};
