import type { Kysely, Migration } from 'kysely';

/**
 * De-identified pushes (issue 33, decision 0071): a destination may name a de-identification
 * profile of its account that every push to it applies; each attempt records the profile it applied
 * (its id and name as they were), and each instance the SOP Instance UID the PACS received
 * (sent_uid, null when it was sent as stored), which a storage commitment names.
 */
export const pushDeidentification: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('destinations').addColumn('anonymization_id', 'text').execute();
    await db.schema.alterTable('study_pushes').addColumn('anonymization_id', 'text').execute();
    await db.schema.alterTable('study_pushes').addColumn('anonymization_name', 'text').execute();
    await db.schema.alterTable('study_push_instances').addColumn('sent_uid', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('study_push_instances').dropColumn('sent_uid').execute();
    await db.schema.alterTable('study_pushes').dropColumn('anonymization_name').execute();
    await db.schema.alterTable('study_pushes').dropColumn('anonymization_id').execute();
    await db.schema.alterTable('destinations').dropColumn('anonymization_id').execute();
  },
};
