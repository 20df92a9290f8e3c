import {
  DEFAULT_STUDY_SORT,
  MAX_PAGE_ROWS,
  STUDY_PAGE_ROWS,
  STUDY_SORT_FIELDS,
} from '@imaging-inbox/contract';
import { invalidField } from '../domain/errors.js';
import type { Params } from '../http/params.js';
import { flag, optionalInt, stringList } from '../http/params.js';
import { isValidTimeZone, parseZonedBound, toDicomDate } from './time.js';

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

const TEXT_FILTERS: Record<string, KeyedColumn | PlainColumn> = {
  patient_name: 'patient_name',
  patientid: 'patientid',
  study_description: 'study_description',
  referring_physician: 'referring_physician',
  accession_number: 'accession_number',
  study_uid: 'study_uid',
  uuid: 'uuid',
  source_ae_title: 'source_ae_title',
  destination_ae_title: 'destination_ae_title',
  patient_sex: 'patient_sex',
  patient_birth_date: 'patient_birth_date',
};

const KNOWN_FILTERS = new Set([
  ...Object.keys(TEXT_FILTERS),
  'star',
  'thin',
  'modality',
  'tags',
  'study_date',
  'created',
  'phi_namespace',
  'storage_namespace',
  'source',
  'has_direct_shares',
  'deleted',
  'must_approve',
  'study_push_status',
  'timezone',
]);

/**
 * Reads the `filter.<field>.<condition>` keys, `sort_by` and `page.*` of study/list and
 * study/count. Unknown filter fields are refused rather than silently ignored: a typo must not
 * widen a search over patient data.
 */
export function parseStudyQuery(params: Params, defaultTimeZone = 'UTC'): StudyQuery {
  const timeZone = params['filter.timezone'] ?? params['timezone'] ?? defaultTimeZone;
  if (!isValidTimeZone(timeZone)) throw invalidField('timezone', 'unknown time zone');
  const query: StudyQuery = {
    text: [],
    studyDate: {},
    created: {},
    sharedOnly: false,
    hasDirectShares: false,
    deleted: false,
    customFields: [],
    sort: parseSort(params['sort_by']),
    rows: optionalInt(params, 'page.rows', STUDY_PAGE_ROWS, 1, MAX_PAGE_ROWS),
    page: optionalInt(params, 'page.number', 1, 1, 1_000_000),
  };

  for (const [key, rawValue] of Object.entries(params)) {
    if (!key.startsWith('filter.')) continue;
    const value = rawValue.trim();
    const rest = key.slice('filter.'.length);
    if (rest.startsWith('SMART_SEARCH')) {
      if (value) query.smart = value;
      continue;
    }
    if (rest.startsWith('customfield-')) {
      query.customFields.push(parseCustomField(rest.slice('customfield-'.length), value, key));
      continue;
    }
    const dot = rest.lastIndexOf('.');
    const field = dot === -1 ? rest : rest.slice(0, dot);
    const condition = dot === -1 ? 'equals' : rest.slice(dot + 1);
    if (!KNOWN_FILTERS.has(field)) throw invalidField(key, 'unknown filter');
    if (value === '' || field === 'timezone') continue;
    applyFilter(query, field, condition, value, key, timeZone);
  }
  return query;
}

function applyFilter(
  query: StudyQuery,
  field: string,
  condition: string,
  value: string,
  key: string,
  timeZone: string,
): void {
  const textColumn = TEXT_FILTERS[field];
  if (textColumn) {
    if (condition === 'like') query.text.push({ kind: 'like', column: textColumn, pattern: value });
    else if (condition === 'equals') {
      const v = textColumn === 'patient_birth_date' ? toDicomDate(value) : value;
      if (v === undefined) throw invalidField(key, 'must be a date YYYYMMDD');
      query.text.push({ kind: 'equals', column: textColumn, value: v });
    } else throw invalidField(key, 'unknown condition');
    return;
  }
  switch (field) {
    case 'star':
    case 'thin':
      query[field] = flag(value);
      return;
    case 'modality':
      query.modalities = stringList(value, key).map((m) => m.toUpperCase());
      return;
    case 'tags':
      query.tags = stringList(value, key);
      return;
    case 'study_date': {
      const date = toDicomDate(value);
      if (!date) throw invalidField(key, 'must be a date YYYYMMDD or YYYY-MM-DD');
      if (condition === 'ge' || condition === 'gt') query.studyDate.ge = date;
      else if (condition === 'le' || condition === 'lt') query.studyDate.le = date;
      else if (condition === 'equals') query.studyDate = { ge: date, le: date };
      else throw invalidField(key, 'unknown condition');
      return;
    }
    case 'created': {
      if (condition !== 'ge' && condition !== 'le') throw invalidField(key, 'unknown condition');
      const epoch = parseZonedBound(value, timeZone, condition);
      if (epoch === undefined) throw invalidField(key, 'must be a date or date-time');
      query.created[condition] = epoch;
      return;
    }
    case 'phi_namespace':
    case 'storage_namespace':
      query.phiNamespaces = condition === 'in' ? stringList(value, key) : [value];
      return;
    case 'source':
      if (value !== 'share') throw invalidField(key, 'only share is supported');
      query.sharedOnly = true;
      return;
    case 'has_direct_shares':
      query.hasDirectShares = flag(value) === 1;
      return;
    case 'deleted':
      query.deleted = flag(value) === 1;
      return;
    case 'must_approve':
      query.mustApprove = flag(value);
      return;
    case 'study_push_status':
      query.pushStatus = condition === 'in' ? stringList(value, key) : [value];
      return;
  }
}

function parseCustomField(rest: string, value: string, key: string): CustomFieldCondition {
  const dot = rest.lastIndexOf('.');
  const name = dot === -1 ? rest : rest.slice(0, dot);
  const op = dot === -1 ? 'equals' : rest.slice(dot + 1);
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) throw invalidField(key, 'bad custom field name');
  if (op === 'equals' || op === 'like') return { name, op, values: [value] };
  if (op === 'in') return { name, op, values: stringList(value, key) };
  if (op === 'is_null') return { name, op, values: [] };
  throw invalidField(key, 'unknown condition');
}

function parseSort(raw: string | undefined): StudySort[] {
  const text = raw?.trim() || DEFAULT_STUDY_SORT;
  return text.split(',').map((part) => {
    // A custom field is named by a workflow name or an account field's uuid (which has hyphens).
    const m =
      /^(customfield-)([A-Za-z0-9_-]{1,64})-(asc|desc)$/.exec(part.trim()) ??
      /^()([A-Za-z0-9_]+)-(asc|desc)$/.exec(part.trim());
    if (!m) throw invalidField('sort_by', 'must be field-direction');
    const [, custom, field, direction] = m as unknown as [string, string | undefined, string, 'asc' | 'desc'];
    if (custom) return { field: 'customfield', customField: field, direction };
    if (!(STUDY_SORT_FIELDS as readonly string[]).includes(field))
      throw invalidField('sort_by', `cannot sort by ${field}`);
    return { field, direction };
  });
}
