import type { Kysely, Selectable } from 'kysely';
import type { Database, InstanceTable, SeriesTable, StudyTable } from '../../db/schema.js';

export type QueryStudyRow = Pick<
  Selectable<StudyTable>,
  | 'uuid'
  | 'study_uid'
  | 'patient_name'
  | 'patientid'
  | 'patient_sex'
  | 'patient_birth_date'
  | 'patient_age'
  | 'accession_number'
  | 'study_description'
  | 'study_date'
  | 'study_time'
  | 'modality'
  | 'referring_physician'
  | 'institution_name'
  | 'image_count'
  | 'series_count'
>;

export interface QueryPatientRow {
  patientid: string;
  patient_name: string;
  patient_birth_date: string;
  patient_sex: string;
  studies: number;
}

export type QuerySeriesRow = Pick<
  Selectable<SeriesTable>,
  'series_uid' | 'modality' | 'series_number' | 'series_description' | 'body_part' | 'image_count'
> & { study_uid: string; study_uuid: string };

export type QueryInstanceRow = Pick<
  Selectable<InstanceTable>,
  | 'sop_instance_uid'
  | 'sop_class_uid'
  | 'instance_number'
  | 'rows'
  | 'columns'
  | 'frames'
  | 'transfer_syntax'
  | 'blob_key'
> & { study_uid: string; study_uuid: string; series_uid: string };

/** What SQL can narrow by before the matching in code (all optional; absent: no constraint). */
export interface StudyFilter {
  studyUids?: string[] | undefined;
  patientId?: string | undefined;
  accessionNumber?: string | undefined;
  dateLow?: string | undefined;
  dateHigh?: string | undefined;
}

export interface BelowStudyFilter {
  studyUids: string[];
  seriesUids?: string[] | undefined;
  sopUids?: string[] | undefined;
}

/**
 * The index read for C-FIND and C-MOVE/C-GET (decision 0061), always within the namespaces a node
 * may query and never in the trash. Pages are keyset pages ordered by the level's unique key, so
 * a study (series, instance) held in several of those groups comes out once: rows of the same key
 * follow each other and the next page starts past the key.
 */
export class QueryIndexRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async studiesPage(
    namespaces: string[],
    filter: StudyFilter,
    afterUid: string,
    limit: number,
  ): Promise<QueryStudyRow[]> {
    let query = this.db
      .selectFrom('studies')
      .select([
        'uuid',
        'study_uid',
        'patient_name',
        'patientid',
        'patient_sex',
        'patient_birth_date',
        'patient_age',
        'accession_number',
        'study_description',
        'study_date',
        'study_time',
        'modality',
        'referring_physician',
        'institution_name',
        'image_count',
        'series_count',
      ])
      .where('namespace_id', 'in', namespaces)
      .where('deleted', 'is', null)
      .where('study_uid', '>', afterUid);
    if (filter.studyUids) query = query.where('study_uid', 'in', filter.studyUids);
    if (filter.patientId !== undefined) query = query.where('patientid', '=', filter.patientId);
    if (filter.accessionNumber !== undefined)
      query = query.where('accession_number', '=', filter.accessionNumber);
    if (filter.dateLow) query = query.where('study_date', '>=', filter.dateLow);
    if (filter.dateHigh) query = query.where('study_date', '<=', filter.dateHigh);
    return query.orderBy('study_uid').orderBy('uuid').limit(limit).execute();
  }

  async patientsPage(
    namespaces: string[],
    patientId: string | undefined,
    afterId: string,
    limit: number,
  ): Promise<QueryPatientRow[]> {
    let query = this.db
      .selectFrom('studies')
      .select((e) => [
        'patientid',
        e.fn.max('patient_name').as('patient_name'),
        e.fn.max('patient_birth_date').as('patient_birth_date'),
        e.fn.max('patient_sex').as('patient_sex'),
        e.fn.count<number>('study_uid').distinct().as('studies'),
      ])
      .where('namespace_id', 'in', namespaces)
      .where('deleted', 'is', null)
      .where('patientid', '>', afterId);
    if (patientId !== undefined) query = query.where('patientid', '=', patientId);
    const rows = await query.groupBy('patientid').orderBy('patientid').limit(limit).execute();
    return rows.map((r) => ({ ...r, studies: Number(r.studies) }));
  }

  async seriesPage(
    namespaces: string[],
    filter: BelowStudyFilter,
    afterUid: string,
    limit: number,
  ): Promise<QuerySeriesRow[]> {
    let query = this.db
      .selectFrom('series')
      .innerJoin('studies', 'studies.uuid', 'series.study_uuid')
      .select([
        'series.series_uid',
        'series.modality',
        'series.series_number',
        'series.series_description',
        'series.body_part',
        'series.image_count',
        'studies.study_uid',
        'studies.uuid as study_uuid',
      ])
      .where('studies.namespace_id', 'in', namespaces)
      .where('studies.deleted', 'is', null)
      .where('studies.study_uid', 'in', filter.studyUids)
      .where('series.series_uid', '>', afterUid);
    if (filter.seriesUids) query = query.where('series.series_uid', 'in', filter.seriesUids);
    return query.orderBy('series.series_uid').orderBy('series.uuid').limit(limit).execute();
  }

  async instancesPage(
    namespaces: string[],
    filter: BelowStudyFilter,
    afterUid: string,
    limit: number,
  ): Promise<QueryInstanceRow[]> {
    let query = this.db
      .selectFrom('instances')
      .innerJoin('studies', 'studies.uuid', 'instances.study_uuid')
      .innerJoin('series', 'series.uuid', 'instances.series_uuid')
      .select([
        'instances.sop_instance_uid',
        'instances.sop_class_uid',
        'instances.instance_number',
        'instances.rows',
        'instances.columns',
        'instances.frames',
        'instances.transfer_syntax',
        'instances.blob_key',
        'studies.study_uid',
        'studies.uuid as study_uuid',
        'series.series_uid',
      ])
      .where('studies.namespace_id', 'in', namespaces)
      .where('studies.deleted', 'is', null)
      .where('studies.study_uid', 'in', filter.studyUids)
      .where('instances.sop_instance_uid', '>', afterUid);
    if (filter.seriesUids) query = query.where('series.series_uid', 'in', filter.seriesUids);
    if (filter.sopUids) query = query.where('instances.sop_instance_uid', 'in', filter.sopUids);
    return query.orderBy('instances.sop_instance_uid').orderBy('instances.uuid').limit(limit).execute();
  }

  /** The Study Instance UIDs of a patient's studies (C-MOVE / C-GET at PATIENT level). */
  async studyUidsOfPatients(namespaces: string[], patientIds: string[]): Promise<string[]> {
    const rows = await this.db
      .selectFrom('studies')
      .select('study_uid')
      .distinct()
      .where('namespace_id', 'in', namespaces)
      .where('deleted', 'is', null)
      .where('patientid', 'in', patientIds)
      .execute();
    return rows.map((r) => r.study_uid);
  }

  /** The Study Instance UIDs of series or instances, for a retrieve that names only those. */
  async studyUidsOf(
    namespaces: string[],
    keys: { seriesUids?: string[] | undefined; sopUids?: string[] | undefined },
  ): Promise<string[]> {
    let query = this.db
      .selectFrom('instances')
      .innerJoin('studies', 'studies.uuid', 'instances.study_uuid')
      .innerJoin('series', 'series.uuid', 'instances.series_uuid')
      .select('studies.study_uid')
      .distinct()
      .where('studies.namespace_id', 'in', namespaces)
      .where('studies.deleted', 'is', null);
    if (keys.seriesUids) query = query.where('series.series_uid', 'in', keys.seriesUids);
    if (keys.sopUids) query = query.where('instances.sop_instance_uid', 'in', keys.sopUids);
    return (await query.limit(1000).execute()).map((r) => r.study_uid);
  }
}
