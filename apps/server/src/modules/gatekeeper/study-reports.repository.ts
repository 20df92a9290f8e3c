import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Structured Report SOP classes share this root; Encapsulated PDF is one class. */
export const SR_CLASS_PREFIX = '1.2.840.10008.5.1.4.1.1.88.';
export const ENCAPSULATED_PDF_CLASS = '1.2.840.10008.5.1.4.1.1.104.1';

export interface ReportInstanceRow {
  sop_instance_uid: string;
  sop_class_uid: string;
  series_uid: string;
  series_description: string;
  blob_key: string;
  created: number;
}

/** The report instances (SR, encapsulated PDF) stored in a study. */
export class StudyReportsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  instances(studyUuid: string): Promise<ReportInstanceRow[]> {
    return this.db
      .selectFrom('instances')
      .innerJoin('series', 'series.uuid', 'instances.series_uuid')
      .select([
        'instances.sop_instance_uid',
        'instances.sop_class_uid',
        'series.series_uid',
        'series.series_description',
        'instances.blob_key',
        'instances.created',
      ])
      .where('instances.study_uuid', '=', studyUuid)
      .where((e) =>
        e.or([
          e('instances.sop_class_uid', 'like', `${SR_CLASS_PREFIX}%`),
          e('instances.sop_class_uid', '=', ENCAPSULATED_PDF_CLASS),
        ]),
      )
      .execute();
  }
}
