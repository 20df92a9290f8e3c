import type { Kysely, Migration } from 'kysely';

/**
 * A personal namespace per user and account: where studies shared with that user are copied, the
 * same way a group share copies into the group's namespace (see docs/architecture.md, "User shares").
 * owner_user_id is null for every account and group namespace.
 */
export const personalNamespaces: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('namespaces')
      .addColumn('owner_user_id', 'text', (c) => c.references('users.uuid'))
      .execute();
    await db.schema
      .createIndex('namespaces_owner')
      .unique()
      .on('namespaces')
      .columns(['owner_user_id', 'account_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('namespaces_owner').execute();
    await db.schema.alterTable('namespaces').dropColumn('owner_user_id').execute();
  },
};
