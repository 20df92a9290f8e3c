import type { Db } from '../../src/db/dialect.js';

/** The study with the most images in a demo group, found straight in the index. */
export function largestStudyIn(db: Db, groupName: string) {
  return db.kysely
    .selectFrom('studies')
    .innerJoin('groups', 'groups.namespace_id', 'studies.namespace_id')
    .select([
      'studies.uuid',
      'studies.study_uid',
      'studies.patient_name',
      'studies.image_count',
      'studies.series_count',
    ])
    .where('groups.name', '=', groupName)
    .orderBy('studies.image_count', 'desc')
    .executeTakeFirstOrThrow();
}

/** The Study Instance UID of some study in a demo group (for refusals: a group the caller is not in). */
export async function someStudyUidIn(db: Db, groupName: string): Promise<string> {
  const row = await db.kysely
    .selectFrom('studies')
    .innerJoin('groups', 'groups.namespace_id', 'studies.namespace_id')
    .select('studies.study_uid')
    .where('groups.name', '=', groupName)
    .executeTakeFirstOrThrow();
  return row.study_uid;
}
