import type { Kysely, Migration } from 'kysely';

/**
 * Request-study links and the short-lived upload grants handed out when one is opened. Tokens and
 * grants are stored as SHA-256 hashes only, so a leaked database does not hand out upload rights.
 */
export const links: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('links')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.uuid'))
      .addColumn('namespace_id', 'text', (c) => c.notNull().references('namespaces.id'))
      .addColumn('created_by', 'text', (c) => c.notNull().references('users.uuid'))
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('message', 'text')
      .addColumn('password_hash', 'text')
      .addColumn('max_hits', 'bigint', (c) => c.notNull())
      .addColumn('hits', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('minutes_alive', 'bigint', (c) => c.notNull())
      .addColumn('notify_on_use', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('expires', 'bigint', (c) => c.notNull())
      .addColumn('revoked', 'bigint')
      .execute();
    await db.schema.createIndex('links_namespace').on('links').columns(['namespace_id', 'created']).execute();
    await db.schema
      .createTable('link_grants')
      .addColumn('grant_hash', 'text', (c) => c.primaryKey())
      .addColumn('link_uuid', 'text', (c) => c.notNull().references('links.uuid'))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('expires', 'bigint', (c) => c.notNull())
      .addColumn('ip', 'text')
      .execute();
    await db.schema.createIndex('link_grants_link').on('link_grants').column('link_uuid').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('link_grants').execute();
    await db.schema.dropTable('links').execute();
  },
};
