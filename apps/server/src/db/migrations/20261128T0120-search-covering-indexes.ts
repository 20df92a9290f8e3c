import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import { isPostgres } from './helpers.js';

/**
 * Study search reads indexes only, in the order it answers. Each namespace's stream of a page
 * carries only its sort keys and uuid (StudiesRepository.searchMerged), and a count only what it
 * filters on, so these indexes hold exactly that:
 * - (namespace_id, created desc, uuid, …): the default order (newest upload first, then uuid)
 *   straight from the index, ties included, with no sort;
 * - (namespace_id, patient_name_key, uuid, …, created): the name sort likewise, and a name
 *   prefix's matches sorted by upload time as small keys;
 * - (namespace_id, study_date, …, created, uuid): a date range's matches, counted or sorted by
 *   upload time as small keys without reading their rows;
 * - study_status (and modality_bits) in each, so leaving out studies still being filled, or
 *   filtering by modality, is checked in the index instead of in each study's row (a date-range
 *   count read 4,000 rows to count 4,000 studies);
 * - deleted last in each: SQLite (3.53) takes a partial index as covering only when the columns of
 *   its WHERE are in the index too, so without it every count and stream read each row's
 *   `deleted` from the table (the unfiltered count read all 100k rows); on PostgreSQL it costs a byte;
 * - on PostgreSQL, whose collation (en_US.UTF-8 and the like) keeps a plain index from serving a
 *   LIKE prefix, patient_name_key also gets a `text_pattern_ops` index for `filter.patient_name.like`.
 * The indexes they replace are dropped afterwards.
 */
const REPLACED: [string, string, string][] = [
  [
    'studies_live_ns_created_keys',
    '(namespace_id, created desc, uuid, study_status, modality_bits, deleted)',
    'studies_live_ns_created',
  ],
  [
    'studies_live_ns_name_keys',
    '(namespace_id, patient_name_key, uuid, study_status, modality_bits, created, deleted)',
    'studies_live_ns_name',
  ],
  [
    'studies_live_ns_date_keys',
    '(namespace_id, study_date, study_status, created, uuid, deleted)',
    'studies_live_ns_date',
  ],
  [
    'studies_live_ns_status_bits_all',
    '(namespace_id, study_status, modality_bits, deleted)',
    'studies_live_ns_status_bits',
  ],
];

export const searchCoveringIndexes: Migration = {
  async up(db: Kysely<unknown>) {
    for (const [name, columns] of REPLACED) {
      await sql`create index ${sql.id(name)} on studies ${sql.raw(columns)} where deleted is null`.execute(
        db,
      );
    }
    if (isPostgres(db)) {
      await sql`create index studies_live_ns_name_prefix on studies (namespace_id, patient_name_key text_pattern_ops, study_status, created, uuid, deleted) where deleted is null`.execute(
        db,
      );
    }
    for (const [, , old] of REPLACED) await db.schema.dropIndex(old).execute();
  },
};
