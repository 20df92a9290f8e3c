/**
 * A validated study search, independent of SQL and of how it was asked for (api/v3 study/list,
 * QIDO-RS): the study query parser (services/study-query.ts) builds it, the studies repository runs it.
 */

/** Text columns searched case-insensitively through their upper-cased `_key` twin. */
export type KeyedColumn = 'patient_name' | 'patientid' | 'study_description' | 'referring_physician';
export type PlainColumn =
  | 'accession_number'
  | 'study_uid'
  | 'uuid'
  | 'source_ae_title'
  | 'destination_ae_title'
  | 'patient_sex'
  | 'patient_birth_date';

export type TextCondition =
  | { kind: 'like'; column: KeyedColumn | PlainColumn; pattern: string }
  | { kind: 'equals'; column: KeyedColumn | PlainColumn; value: string };

export interface CustomFieldCondition {
  name: string;
  op: 'equals' | 'like' | 'in' | 'is_null';
  values: string[];
}

export interface StudySort {
  field: string;
  customField?: string;
  direction: 'asc' | 'desc';
}

/** A validated study/list or study/count request, independent of SQL. */
export interface StudyQuery {
  text: TextCondition[];
  smart?: string;
  star?: 0 | 1;
  thin?: 0 | 1;
  modalities?: string[];
  tags?: string[];
  studyDate: { ge?: string; le?: string };
  created: { ge?: number; le?: number };
  phiNamespaces?: string[];
  sharedOnly: boolean;
  hasDirectShares: boolean;
  deleted: boolean;
  mustApprove?: 0 | 1;
  pushStatus?: string[];
  customFields: CustomFieldCondition[];
  sort: StudySort[];
  rows: number;
  page: number;
  /** Rows to skip; when unset, (page - 1) * rows. QIDO-RS pages by offset. */
  offset?: number;
}
