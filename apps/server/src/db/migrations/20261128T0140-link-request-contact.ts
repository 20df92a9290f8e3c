import type { Kysely, Migration } from 'kysely';

/**
 * A request-study link's mobile phone (whom the request is for; kept and shown, as this server
 * sends no text messages) and its share description, which becomes the share message of every
 * study uploaded through the link so the inbox shows what was asked for beside what arrived.
 */
export const linkRequestContact: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('links').addColumn('mobile_phone', 'text').execute();
    await db.schema.alterTable('links').addColumn('share_description', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('links').dropColumn('share_description').execute();
    await db.schema.alterTable('links').dropColumn('mobile_phone').execute();
  },
};
