import type { Kysely, Migration } from 'kysely';

/**
 * The profile's language (en, fr, es). Null means no choice: the web app follows the browser, and
 * e-mails to the user fall back to the account's language, then English.
 */
export const userLanguage: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('language', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('users').dropColumn('language').execute();
  },
};
