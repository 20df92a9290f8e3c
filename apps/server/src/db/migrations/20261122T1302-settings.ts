import type { Kysely, Migration } from 'kysely';

/** Key/value settings of users and accounts. */
export const settings: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('settings')
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('settings_pk', ['owner', 'key'])
      .execute();
  },
};
