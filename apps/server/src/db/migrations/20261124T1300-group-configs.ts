import type { Kysely, Migration } from 'kysely';

/**
 * The gatekeeper workflow's configuration of a group, one JSON document per group, checked against
 * the contract's schema of its type on every write (gatekeeper: nomination form, promote
 * preference, destinations; cloud: the gatekeepers it may nominate to).
 */
export const groupConfigs: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('group_configs')
      .addColumn('group_id', 'text', (c) => c.primaryKey().references('groups.uuid').onDelete('cascade'))
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('config', 'text', (c) => c.notNull())
      .addColumn('updated', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('group_configs').execute();
  },
};
