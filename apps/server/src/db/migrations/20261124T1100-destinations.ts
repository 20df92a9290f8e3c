import type { Kysely, Migration } from 'kysely';

/**
 * PACS-like destinations of an account: the called AE title, address and port we query, retrieve
 * from and push to, what each may be used for, and the outcome of its last C-ECHO.
 */
export const destinations: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('destinations')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.uuid'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('aetitle', 'text', (c) => c.notNull())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('port', 'integer', (c) => c.notNull())
      .addColumn('can_search', 'integer', (c) => c.notNull())
      .addColumn('can_search_mwl', 'integer', (c) => c.notNull())
      .addColumn('can_push', 'integer', (c) => c.notNull())
      .addColumn('c_echo_interval', 'integer')
      .addColumn('last_echo_ok', 'integer')
      .addColumn('last_echo_ms', 'integer')
      .addColumn('last_echo_reason', 'text')
      .addColumn('last_echo_at', 'bigint')
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('updated', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('destinations_account').on('destinations').column('account_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('destinations').execute();
  },
};
