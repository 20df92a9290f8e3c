import type { Kysely, Migration } from 'kysely';

/**
 * Routing rules of an account (read in `sequence` order): whose studies (`for_type`/`for_id`),
 * on which events, the conditions (all/any) and the actions, as JSON the contract's schemas check.
 */
export const routingRules: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('routing_rules')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('sequence', 'integer', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('for_type', 'text')
      .addColumn('for_id', 'text')
      .addColumn('events', 'text', (c) => c.notNull())
      .addColumn('match', 'text', (c) => c.notNull())
      .addColumn('conditions', 'text', (c) => c.notNull())
      .addColumn('actions', 'text', (c) => c.notNull())
      .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('updated', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('routing_rules_account')
      .on('routing_rules')
      .columns(['account_id', 'sequence'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('routing_rules').execute();
  },
};
