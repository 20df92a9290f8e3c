import type { Kysely, Migration } from 'kysely';

/**
 * Per user and namespace, which events the user is mailed about (user/event, user/event/set).
 * No row means every flag is off: notifications are opt-in.
 */
export const userEvents: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('user_events')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.uuid'))
      .addColumn('namespace_id', 'text', (c) => c.notNull().references('namespaces.id'))
      .addColumn('event_share', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('event_harvest', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('user_events_pk', ['user_id', 'namespace_id'])
      .execute();
    // Recipients of an event are looked up by namespace.
    await db.schema.createIndex('user_events_namespace').on('user_events').column('namespace_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('user_events').execute();
  },
};
