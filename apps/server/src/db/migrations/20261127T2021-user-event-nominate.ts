import type { Kysely, Migration } from 'kysely';

/** The 'nominated to gatekeeper groups' notification flag, off until the user turns it on. */
export const userEventNominate: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('user_events')
      .addColumn('event_nominate', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('user_events').dropColumn('event_nominate').execute();
  },
};
