import {
  DEFAULT_STUDY_SORT,
  MAX_FILTER_LENGTH,
  parseFlag,
  parseStringList,
  STUDY_FILTER_FIELDS,
  STUDY_SORT_FIELDS,
} from '@imaging-inbox/contract';
import type { StudySearchRequest, StudyTextFilterField } from '@imaging-inbox/contract';
import { invalidField } from './errors.js';
import type {
  CustomFieldCondition,
  KeyedColumn,
  PlainColumn,
  StudyQuery,
  StudySort,
} from '../repositories/study-query.types.js';
import { isValidTimeZone, parseZonedBound, toDicomDate } from './time.js';

const TEXT_FILTERS: Record<StudyTextFilterField, KeyedColumn | PlainColumn> = {
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

const KNOWN_FILTERS = new Set<string>(STUDY_FILTER_FIELDS);

/**
 * Builds the study query of a study/list or study/count request from its `filter.<field>.<condition>`
 * keys, `sort_by` and paging. Unknown filter fields are refused rather than silently ignored: a typo
 * must not widen a search over patient data.
 */
export function buildStudyQuery(request: StudySearchRequest, defaultTimeZone = 'UTC'): StudyQuery {
  const timeZone = request.timeZone ?? defaultTimeZone;
  if (!isValidTimeZone(timeZone)) throw invalidField('timezone', 'unknown time zone');
  const query: StudyQuery = {
    text: [],
    studyDate: {},
    created: {},
    sharedOnly: false,
    hasDirectShares: false,
    deleted: false,
    customFields: [],
    sort: parseSort(request.sortBy),
    rows: request.rows,
    page: request.page,
  };

  for (const [key, rawValue] of Object.entries(request.filters)) {
    if (!key.startsWith('filter.')) continue;
    const value = rawValue.trim();
    // A 50,000-character `like` pattern costs the database far more than any search needs.
    if (value.length > MAX_FILTER_LENGTH) {
      throw invalidField(key, `at most ${MAX_FILTER_LENGTH} characters`);
    }
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
  const textColumn = TEXT_FILTERS[field as StudyTextFilterField];
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
      query[field] = flagOf(value);
      return;
    case 'modality':
      query.modalities = listOf(value, key).map((m) => m.toUpperCase());
      return;
    case 'tags':
      query.tags = listOf(value, key);
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
      query.phiNamespaces = condition === 'in' ? listOf(value, key) : [value];
      return;
    case 'source':
      if (value !== 'share') throw invalidField(key, 'only share is supported');
      query.sharedOnly = true;
      return;
    case 'has_direct_shares':
      query.hasDirectShares = flagOf(value) === 1;
      return;
    case 'deleted':
      query.deleted = flagOf(value) === 1;
      return;
    case 'must_approve':
      query.mustApprove = flagOf(value);
      return;
    case 'study_push_status':
      query.pushStatus = condition === 'in' ? listOf(value, key) : [value];
      return;
  }
}

function parseCustomField(rest: string, value: string, key: string): CustomFieldCondition {
  const dot = rest.lastIndexOf('.');
  const name = dot === -1 ? rest : rest.slice(0, dot);
  const op = dot === -1 ? 'equals' : rest.slice(dot + 1);
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) throw invalidField(key, 'bad custom field name');
  if (op === 'equals' || op === 'like') return { name, op, values: [value] };
  if (op === 'in') return { name, op, values: listOf(value, key) };
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

function listOf(raw: string, key: string): string[] {
  const result = parseStringList(raw);
  if (!result.ok) throw invalidField(key, result.why);
  return result.list;
}

/** A 0/1 filter; a wrong value answers INVALID_FIELD `flag`, as api/v3 always has. */
function flagOf(raw: string): 0 | 1 | undefined {
  const value = parseFlag(raw);
  if (value === 'invalid') throw invalidField('flag', 'must be 0 or 1');
  return value;
}
