import type { Kysely, Migration } from 'kysely';

/**
 * The append in progress on an upload session: `claim` is a random token the appending request set
 * by a compare-and-set on (received, no live claim), `claim_expires` when a crashed process's claim
 * may be taken over. Two processes (or requests) appending at the same offset cannot both write.
 */
export const uploadSessionClaims: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('upload_sessions').addColumn('claim', 'text').execute();
    await db.schema.alterTable('upload_sessions').addColumn('claim_expires', 'bigint').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('upload_sessions').dropColumn('claim_expires').execute();
    await db.schema.alterTable('upload_sessions').dropColumn('claim').execute();
  },
};
