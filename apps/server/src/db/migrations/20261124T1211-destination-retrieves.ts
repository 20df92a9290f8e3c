import type { Kysely, Migration } from 'kysely';

/**
 * Retrieves (C-MOVE to our AE as a job) of studies a destination search found, with their progress.
 * The listener finds the running retrieve an arriving instance belongs to by its destination (the
 * calling AE), the C-MOVE's message id and, failing those, the study.
 */
export const destinationRetrieves: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('destination_retrieves')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('search_id', 'text', (c) =>
        c.notNull().references('destination_searches.uuid').onDelete('cascade'),
      )
      .addColumn('destination_id', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('namespace_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('study_uid', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('move_message_id', 'integer')
      /** Sub-operation counts from the C-MOVE responses (null until the peer sends them). */
      .addColumn('completed', 'integer')
      .addColumn('failed', 'integer')
      .addColumn('remaining', 'integer')
      /** Instances that arrived and were stored, counted on our side. */
      .addColumn('received', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('updated', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('destination_retrieves_running')
      .on('destination_retrieves')
      .columns(['destination_id', 'state'])
      .execute();
    await db.schema
      .createIndex('destination_retrieves_search')
      .on('destination_retrieves')
      .column('search_id')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('destination_retrieves').execute();
  },
};
