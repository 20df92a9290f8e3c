import type { Kysely, Migration } from 'kysely';

/**
 * The HL7 senders an account accepts messages from (decision 0056): the address a connection
 * comes from, the sending facility (MSH-4) and optionally the sending application (MSH-3). The
 * keys are the facility and application trimmed and upper-cased ('' for any application), unique
 * together with the address over all accounts: one sender writes to one account.
 */
export const hl7Senders: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('hl7_senders')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.uuid'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('host', 'text', (c) => c.notNull())
      .addColumn('facility', 'text', (c) => c.notNull())
      .addColumn('facility_key', 'text', (c) => c.notNull())
      .addColumn('application', 'text')
      .addColumn('application_key', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('hl7_senders_identity', ['host', 'facility_key', 'application_key'])
      .execute();
    await db.schema.createIndex('hl7_senders_account').on('hl7_senders').column('account_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('hl7_senders').execute();
  },
};
