import type { Kysely, Migration } from 'kysely';

/**
 * A share code names a namespace outsiders may send studies to (`namespace/share_code` looks it up;
 * study/share with share_code sends there); the description tells the sender whom they reach.
 */
export const namespaceShareCodes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('namespaces').addColumn('share_code', 'text').execute();
    await db.schema.alterTable('namespaces').addColumn('share_description', 'text').execute();
    // Unique among the namespaces that have one (NULLs never collide on either database).
    await db.schema
      .createIndex('namespaces_share_code')
      .unique()
      .on('namespaces')
      .column('share_code')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('namespaces_share_code').execute();
    await db.schema.alterTable('namespaces').dropColumn('share_description').execute();
    await db.schema.alterTable('namespaces').dropColumn('share_code').execute();
  },
};
