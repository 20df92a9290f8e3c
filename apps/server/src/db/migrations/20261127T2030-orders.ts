import type { Kysely, Migration } from 'kysely';

/**
 * An account's own orders (typed in, or received as HL7 ORM^O01): one per accession number in an
 * account, so an HL7 update or cancel finds the order it names. The patient name is also kept
 * upper-cased (`patient_name_key`), so a LIKE search matches regardless of case on both dialects.
 */
export const orders: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('orders')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('accession_number', 'text', (c) => c.notNull())
      .addColumn('patient_name', 'text', (c) => c.notNull())
      .addColumn('patient_name_key', 'text', (c) => c.notNull())
      .addColumn('patientid', 'text', (c) => c.notNull())
      .addColumn('patient_birth_date', 'text', (c) => c.notNull())
      .addColumn('patient_sex', 'text', (c) => c.notNull())
      .addColumn('requested_procedure', 'text', (c) => c.notNull())
      .addColumn('modality', 'text', (c) => c.notNull())
      .addColumn('scheduled_date', 'text', (c) => c.notNull())
      .addColumn('referring_physician', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('updated', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('orders_accession', ['account_id', 'accession_number'])
      .execute();
    await db.schema
      .createIndex('orders_patientid')
      .on('orders')
      .columns(['account_id', 'patientid'])
      .execute();
    await db.schema
      .createIndex('orders_patient_name')
      .on('orders')
      .columns(['account_id', 'patient_name_key'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('orders').execute();
  },
};
