import type { Kysely, Migration } from 'kysely';

/**
 * The profile's mobile phone (user/set). The profile's share code lives on the user's personal
 * namespace (namespaces.share_code) and the date format in settings, so this is the only new column.
 */
export const userMobilePhone: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('mobile_phone', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('users').dropColumn('mobile_phone').execute();
  },
};
