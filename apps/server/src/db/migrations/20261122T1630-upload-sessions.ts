import type { Kysely, Migration } from 'kysely';

/**
 * Resumable upload sessions: one row per file being sent in chunks, its bytes in a temp file under
 * DATA_DIR/uploads. The id is a secret handed to the uploader and stored only as a hash; `owner`
 * scopes it to the sign-in session or the link grant that created it.
 */
export const uploadSessions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('upload_sessions')
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.uuid'))
      .addColumn('namespace_id', 'text', (c) => c.notNull().references('namespaces.id'))
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text')
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('received', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('expires', 'bigint', (c) => c.notNull())
      .addColumn('answer', 'text')
      .execute();
    await db.schema.createIndex('upload_sessions_owner').on('upload_sessions').column('owner').execute();
    await db.schema.createIndex('upload_sessions_expires').on('upload_sessions').column('expires').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('upload_sessions').execute();
  },
};
