import type { Kysely, Migration } from 'kysely';

/**
 * The study index: one row per study per namespace, its series and instances (the files), and
 * the side tables that study/list filters on (modalities, tags, custom fields).
 */
export const studies: Migration = {
  async up(db: Kysely<unknown>) {
    let t = db.schema
      .createTable('studies')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.uuid'))
      .addColumn('namespace_id', 'text', (c) => c.notNull().references('namespaces.id'))
      .addColumn('study_uid', 'text', (c) => c.notNull());
    for (const column of [
      'patient_name',
      'patient_name_key',
      'patientid',
      'patientid_key',
      'patient_sex',
      'patient_birth_date',
      'patient_age',
      'accession_number',
      'study_description',
      'study_description_key',
      'study_date',
      'study_time',
      'modality',
      'referring_physician',
      'referring_physician_key',
      'source_ae_title',
      'destination_ae_title',
      'institution_name',
      'study_status',
    ]) {
      t = t.addColumn(column, 'text', (c) => c.notNull().defaultTo(''));
    }
    for (const column of [
      'image_count',
      'series_count',
      'attachment_count',
      'star',
      'thin',
      'is_locked',
      'must_approve',
      'direct_share_count',
    ]) {
      t = t.addColumn(column, 'integer', (c) => c.notNull().defaultTo(0));
    }
    await t
      .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('locked_by', 'text')
      .addColumn('push_status', 'text')
      .addColumn('source', 'text')
      .addColumn('share_message', 'text')
      .addColumn('shared_from', 'text')
      .addColumn('deleted', 'bigint')
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('updated', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('studies_namespace_uid', ['namespace_id', 'study_uid'])
      .execute();
    // Each sort of study/list has an index led by the namespace, so a page of 50 is read in
    // order without sorting; the single-column ones serve exact-match filters.
    const indexes: [string, string[]][] = [
      ['studies_ns_created', ['namespace_id', 'created']],
      ['studies_ns_name', ['namespace_id', 'patient_name_key']],
      ['studies_ns_date', ['namespace_id', 'study_date']],
      ['studies_created', ['created']],
      ['studies_name', ['patient_name_key']],
      ['studies_date', ['study_date']],
      ['studies_accession', ['accession_number']],
      ['studies_patientid', ['patientid_key']],
      ['studies_uid', ['study_uid']],
      ['studies_account', ['account_id']],
    ];
    for (const [name, columns] of indexes) {
      await db.schema.createIndex(name).on('studies').columns(columns).execute();
    }

    await db.schema
      .createTable('study_modalities')
      .addColumn('study_uuid', 'text', (c) => c.notNull().references('studies.uuid').onDelete('cascade'))
      .addColumn('modality', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('study_modalities_pk', ['study_uuid', 'modality'])
      .execute();
    await db.schema
      .createIndex('study_modalities_modality')
      .on('study_modalities')
      .columns(['modality', 'study_uuid'])
      .execute();

    await db.schema
      .createTable('study_tags')
      .addColumn('study_uuid', 'text', (c) => c.notNull().references('studies.uuid').onDelete('cascade'))
      .addColumn('tag', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('study_tags_pk', ['study_uuid', 'tag'])
      .execute();
    await db.schema.createIndex('study_tags_tag').on('study_tags').columns(['tag', 'study_uuid']).execute();

    await db.schema
      .createTable('study_customfields')
      .addColumn('study_uuid', 'text', (c) => c.notNull().references('studies.uuid').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('value', 'text')
      .addPrimaryKeyConstraint('study_customfields_pk', ['study_uuid', 'name'])
      .execute();

    await db.schema
      .createTable('series')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('study_uuid', 'text', (c) => c.notNull().references('studies.uuid').onDelete('cascade'))
      .addColumn('series_uid', 'text', (c) => c.notNull())
      .addColumn('modality', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('series_number', 'integer')
      .addColumn('series_description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('body_part', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('image_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
      .addUniqueConstraint('series_study_uid', ['study_uuid', 'series_uid'])
      .execute();

    await db.schema
      .createTable('instances')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('study_uuid', 'text', (c) => c.notNull().references('studies.uuid').onDelete('cascade'))
      .addColumn('series_uuid', 'text', (c) => c.notNull().references('series.uuid').onDelete('cascade'))
      .addColumn('sop_instance_uid', 'text', (c) => c.notNull())
      .addColumn('sop_class_uid', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('instance_number', 'integer')
      .addColumn('transfer_syntax', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('rows', 'integer')
      .addColumn('columns', 'integer')
      .addColumn('frames', 'integer')
      .addColumn('blob_key', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('instances_study_sop', ['study_uuid', 'sop_instance_uid'])
      .execute();
    await db.schema.createIndex('instances_series').on('instances').column('series_uuid').execute();
  },
};
