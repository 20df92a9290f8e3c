import type { Kysely, Migration } from 'kysely';

/**
 * Connections: other accounts this account sends studies to. Each names the receiving group
 * (target_namespace_id) of the other account, where sent studies are copied.
 */
export const connections: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('connections')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.uuid'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('target_account_id', 'text', (c) => c.notNull().references('accounts.uuid'))
      .addColumn('target_namespace_id', 'text', (c) => c.notNull().references('namespaces.id'))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('connections_target', ['account_id', 'target_namespace_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('connections').execute();
  },
};
