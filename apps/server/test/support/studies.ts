import type { Db } from '../../src/db/dialect.js';

/** The studies of a demo group, found straight in the index, with what tests compare them by. */
function studiesOfGroup(db: Db, groupName: string) {
  return db.kysely
    .selectFrom('studies')
    .innerJoin('groups', 'groups.namespace_id', 'studies.namespace_id')
    .select([
      'studies.uuid',
      'studies.study_uid',
      'studies.patient_name',
      'studies.patientid',
      'studies.image_count',
      'studies.series_count',
    ])
    .where('groups.name', '=', groupName);
}

/** The study with the most images in a demo group. */
export function largestStudyIn(db: Db, groupName: string) {
  return studiesOfGroup(db, groupName).orderBy('studies.image_count', 'desc').executeTakeFirstOrThrow();
}

/** The `count` studies not deleted with the fewest images in a demo group (quick to copy and send), fewest first. */
export function smallestStudiesIn(db: Db, groupName: string, count: number) {
  return studiesOfGroup(db, groupName)
    .where('studies.deleted', 'is', null)
    .orderBy('studies.image_count', 'asc')
    .limit(count)
    .execute();
}

/** The study not deleted with the fewest images in a demo group. */
export async function smallestStudyIn(db: Db, groupName: string) {
  const [study] = await smallestStudiesIn(db, groupName, 1);
  if (!study) throw new Error(`no study in ${groupName}`);
  return study;
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
