import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';

/**
 * The upload-time keys index of the live studies also holds `study_date` (decision 0082), so that
 * a date range's stream per namespace can read the namespace's newest studies in upload order
 * from the index alone and stop after a bounded number, instead of sorting every match of the
 * range by upload time. It replaces `studies_live_ns_created_keys` (migration 20261128T0120),
 * whose columns it keeps in the same order, `deleted` last for the reason given there.
 */
export const studyRecentWindow: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`create index studies_live_ns_created_dates on studies (namespace_id, created desc, uuid, study_status, modality_bits, study_date, deleted) where deleted is null`.execute(
      db,
    );
    await db.schema.dropIndex('studies_live_ns_created_keys').execute();
  },
};
