import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';

/**
 * When the holder took or last renewed a study's lock: a lock lapses 15 minutes later
 * (policies/study-lock.ts), so a browser that died mid-edit does not lock the study for good. Locks
 * held before this column existed count from the upgrade.
 */
export const studyLockSince: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('studies').addColumn('locked_at', 'bigint').execute();
    await sql`update studies set locked_at = ${Date.now()} where is_locked = 1`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('studies').dropColumn('locked_at').execute();
  },
};
