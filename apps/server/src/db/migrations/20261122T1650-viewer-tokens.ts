import type { Kysely, Migration } from 'kysely';

/**
 * Viewer tokens: short-lived credentials that open one study (namespace + Study Instance UID) over
 * DICOMweb for the embedded viewer. Stored by SHA-256 hash only; each row names the session that
 * asked for it, so signing out ends the token too.
 */
export const viewerTokens: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('viewer_tokens')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.uuid'))
      .addColumn('sid_hash', 'text', (c) => c.notNull())
      .addColumn('namespace_id', 'text', (c) => c.notNull().references('namespaces.id'))
      .addColumn('study_uid', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('expires', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('viewer_tokens_expires').on('viewer_tokens').column('expires').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('viewer_tokens').execute();
  },
};
