import type { Kysely, Migration } from 'kysely';

/**
 * Storage commitment on push (issue 31, decision 0064): per destination whether a push asks the
 * PACS to commit what it stored (N-ACTION, Storage Commitment Push Model) and how long to wait for
 * its report (seconds; null: the server's STORAGE_COMMITMENT_TIMEOUT_S); and each commitment asked,
 * durable so a restart while the report is awaited loses nothing.
 */
export const storageCommitment: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('destinations')
      .addColumn('storage_commitment', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('destinations').addColumn('storage_commitment_timeout', 'integer').execute();
    await db.schema
      .createTable('storage_commitments')
      // The Transaction UID (0008,1195) the N-ACTION carried and the report names.
      .addColumn('transaction_uid', 'text', (c) => c.primaryKey())
      .addColumn('push_id', 'text', (c) => c.notNull())
      .addColumn('destination_id', 'text', (c) => c.notNull())
      // waiting (asked, no report yet), committed, failed (some instance not committed), expired.
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('requested', 'bigint', (c) => c.notNull())
      // When the N-ACTION-RSP came back (null: not sent yet, sent again after a restart).
      .addColumn('acknowledged', 'bigint')
      .addColumn('deadline', 'bigint', (c) => c.notNull())
      .addColumn('reported', 'bigint')
      .execute();
    await db.schema
      .createIndex('storage_commitments_push')
      .on('storage_commitments')
      .column('push_id')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('storage_commitments').execute();
    await db.schema.alterTable('destinations').dropColumn('storage_commitment_timeout').execute();
    await db.schema.alterTable('destinations').dropColumn('storage_commitment').execute();
  },
};
