import type { Kysely, Selectable } from 'kysely';
import type { Database, InstanceTable, SeriesTable } from '../db/schema.js';
import type { StudyRow } from './studies.repository.js';

export type SeriesRow = Selectable<SeriesTable>;
export type InstanceRow = Selectable<InstanceTable>;

/** Study, series and instance lookups by DICOM UID, for the DICOMweb endpoints. */
export class DicomwebRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The first non-deleted copy of a study among the namespaces the caller may view. */
  studyByUid(studyUid: string, namespaces: string[]): Promise<StudyRow | undefined> {
    if (!namespaces.length) return Promise.resolve(undefined);
    return this.db
      .selectFrom('studies')
      .selectAll()
      .where('study_uid', '=', studyUid)
      .where('namespace_id', 'in', namespaces)
      .where('deleted', 'is', null)
      .orderBy('created')
      .limit(1)
      .executeTakeFirst();
  }

  seriesOfStudy(
    studyUuid: string,
    filter: { seriesUid?: string; modality?: string; seriesNumber?: number },
  ): Promise<SeriesRow[]> {
    let query = this.db.selectFrom('series').selectAll().where('study_uuid', '=', studyUuid);
    if (filter.seriesUid) query = query.where('series_uid', '=', filter.seriesUid);
    if (filter.modality) query = query.where('modality', '=', filter.modality);
    if (filter.seriesNumber !== undefined) query = query.where('series_number', '=', filter.seriesNumber);
    return query.orderBy('series_number').orderBy('series_uid').execute();
  }

  /** The first instance (by instance number) of each series of a study stored in one of `transferSyntaxes`. */
  async firstInstanceBySeries(
    studyUuid: string,
    transferSyntaxes: readonly string[],
  ): Promise<Map<string, string>> {
    const rows = await this.db
      .selectFrom('instances')
      .innerJoin('series', 'series.uuid', 'instances.series_uuid')
      .select(['series.series_uid', 'instances.sop_instance_uid'])
      .where('instances.study_uuid', '=', studyUuid)
      .where('instances.transfer_syntax', 'in', [...transferSyntaxes])
      .orderBy('instances.instance_number')
      .orderBy('instances.sop_instance_uid')
      .execute();
    const first = new Map<string, string>();
    for (const row of rows) if (!first.has(row.series_uid)) first.set(row.series_uid, row.sop_instance_uid);
    return first;
  }

  instances(
    studyUuid: string,
    filter: { seriesUuid?: string; sopInstanceUid?: string; sopClassUid?: string; instanceNumber?: number },
  ): Promise<(InstanceRow & { series_uid: string; modality: string })[]> {
    let query = this.db
      .selectFrom('instances')
      .innerJoin('series', 'series.uuid', 'instances.series_uuid')
      .selectAll('instances')
      .select(['series.series_uid', 'series.modality'])
      .where('instances.study_uuid', '=', studyUuid);
    if (filter.seriesUuid) query = query.where('instances.series_uuid', '=', filter.seriesUuid);
    if (filter.sopInstanceUid) query = query.where('instances.sop_instance_uid', '=', filter.sopInstanceUid);
    if (filter.sopClassUid) query = query.where('instances.sop_class_uid', '=', filter.sopClassUid);
    if (filter.instanceNumber !== undefined)
      query = query.where('instances.instance_number', '=', filter.instanceNumber);
    return query
      .orderBy('series.series_number')
      .orderBy('instances.instance_number')
      .orderBy('instances.sop_instance_uid')
      .execute();
  }
}
