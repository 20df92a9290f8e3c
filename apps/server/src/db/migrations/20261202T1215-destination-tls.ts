import type { Kysely, Migration } from 'kysely';

/**
 * DICOM over TLS to a destination (issue 31, decision 0065): whether its associations run over TLS,
 * and the PEM text of the CA certificate(s) its certificate must chain to, and of the client
 * certificate and private key we present (all null: none).
 */
export const destinationTls: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('destinations')
      .addColumn('tls', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('destinations').addColumn('tls_ca', 'text').execute();
    await db.schema.alterTable('destinations').addColumn('tls_cert', 'text').execute();
    await db.schema.alterTable('destinations').addColumn('tls_key', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('destinations').dropColumn('tls_key').execute();
    await db.schema.alterTable('destinations').dropColumn('tls_cert').execute();
    await db.schema.alterTable('destinations').dropColumn('tls_ca').execute();
    await db.schema.alterTable('destinations').dropColumn('tls').execute();
  },
};
