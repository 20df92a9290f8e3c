import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';

/**
 * Partial indexes over live studies (deleted is null, as every study/list and study/count without
 * filter.deleted asks) so the searches of the benchmark read indexes only:
 * - (namespace_id, …) serve the count per namespace as covering index scans and let each
 *   namespace's page be read in sort order (the list merges one ordered stream per namespace);
 * - (uuid, namespace_id) answers the `uuid in (…modality/tag subquery…)` probes of study/count
 *   without visiting the table.
 */
const INDEXES: [string, string[]][] = [
  ['studies_live_ns_created', ['namespace_id', 'created']],
  ['studies_live_ns_name', ['namespace_id', 'patient_name_key']],
  ['studies_live_ns_date', ['namespace_id', 'study_date']],
  ['studies_live_uuid_ns', ['uuid', 'namespace_id']],
];

export const searchIndexes: Migration = {
  async up(db: Kysely<unknown>) {
    for (const [name, columns] of INDEXES) {
      await db.schema
        .createIndex(name)
        .on('studies')
        .columns(columns)
        .where(sql.ref('deleted'), 'is', null)
        .execute();
    }
  },
  async down(db: Kysely<unknown>) {
    for (const [name] of INDEXES) await db.schema.dropIndex(name).execute();
  },
};
