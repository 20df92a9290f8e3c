import type { Kysely, Migration } from 'kysely';

/**
 * SHA-256 of the first bytes of the file an upload session was opened for (hex, declared by the
 * client at create and checked against the bytes once they arrive): a resume by a different file
 * is refused instead of appending to another file's start.
 */
export const uploadSessionHead: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('upload_sessions').addColumn('head_sha256', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('upload_sessions').dropColumn('head_sha256').execute();
  },
};
