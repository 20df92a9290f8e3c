import { MESSAGES, SEARCH_CRITERIA } from '@imaging-inbox/contract';
import type { DestinationSearchResult } from '@imaging-inbox/contract';
import { DomainError, invalidField } from '../../domain/errors.js';

/** A destination search as the job runs it: what to match (dates as DICOM `YYYYMMDD`, '' for none). */
export interface SearchQuery {
  patient_name: string;
  patientid: string;
  accession_number: string;
  study_description: string;
  modality: string;
  start_date: string;
  end_date: string;
}

export interface SearchParams {
  patient_name?: string | undefined;
  patientid?: string | undefined;
  accession_number?: string | undefined;
  modality?: string | undefined;
  query_fields?: string | undefined;
  start_datetime?: string | undefined;
  end_datetime?: string | undefined;
}

/** Names query_fields may use for the one extra field a destination search matches (0008,1030). */
const DESCRIPTION_KEYS = new Set([
  '00081030',
  '(0008,1030)',
  '0008,1030',
  'StudyDescription',
  'study_description',
]);
/** A backslash or a control character would end or split a DICOM query value. */
const unsafe = (value: string) => value.includes('\\') || [...value].some((c) => c.charCodeAt(0) < 0x20);
const MAX_VALUE = 64;

/**
 * Checks a destination/search request and answers the query: at least one criterion (else the
 * page's 'Please enter a value to perform search.'), no date ahead of `today` (YYYYMMDD), the start
 * not after the end.
 */
export function parseSearchQuery(params: SearchParams, today: string): SearchQuery {
  const query: SearchQuery = {
    patient_name: queryText(params.patient_name, 'patient_name'),
    patientid: queryText(params.patientid, 'patientid'),
    accession_number: queryText(params.accession_number, 'accession_number'),
    study_description: description(params.query_fields),
    modality: queryModality(params.modality),
    start_date: date(params.start_datetime, 'start_datetime'),
    end_date: date(params.end_datetime, 'end_datetime'),
  };
  if (!SEARCH_CRITERIA.some((f) => query[f] !== '')) {
    throw new DomainError('MISSING_FIELDS', 'criterion', MESSAGES.retrieveEnterValue);
  }
  for (const [field, value] of [
    ['start_datetime', query.start_date],
    ['end_datetime', query.end_date],
  ] as const) {
    if (value > today) throw invalidField(field, MESSAGES.retrieveFutureDate);
  }
  if (query.start_date && query.end_date && query.start_date > query.end_date) {
    throw invalidField('start_datetime', MESSAGES.retrieveDateOrder);
  }
  return query;
}

/** The C-FIND identifier (Study Root, STUDY level): the matches asked for and every return key. */
export function findKeys(query: SearchQuery): Record<string, string> {
  const dates = query.start_date || query.end_date ? `${query.start_date}-${query.end_date}` : '';
  return {
    StudyInstanceUID: '',
    // A name is matched from its start, as the inbox's own search does, unless it has wildcards.
    PatientName:
      query.patient_name && !/[*?]/.test(query.patient_name) ? `${query.patient_name}*` : query.patient_name,
    PatientID: query.patientid,
    PatientBirthDate: '',
    PatientSex: '',
    AccessionNumber: query.accession_number,
    StudyDate: query.start_date && query.start_date === query.end_date ? query.start_date : dates,
    StudyDescription: query.study_description,
    ModalitiesInStudy: query.modality,
    RetrieveAETitle: '',
  };
}

/** One C-FIND answer as a search result; undefined for an answer without a Study Instance UID. */
export function searchResultOf(
  attributes: Record<string, unknown>,
  destinationAe: string,
): DestinationSearchResult | undefined {
  const get = (keyword: string) => {
    const value = attributes[keyword];
    return typeof value === 'string' ? value.trim() : '';
  };
  const studyUid = get('StudyInstanceUID');
  if (!studyUid) return undefined;
  return {
    study_uid: studyUid,
    patient_name: get('PatientName'),
    patient_birth_date: get('PatientBirthDate'),
    patient_sex: get('PatientSex'),
    patientid: get('PatientID'),
    accession_number: get('AccessionNumber'),
    study_date: get('StudyDate'),
    study_description: get('StudyDescription'),
    modality: get('ModalitiesInStudy').split('\\').filter(Boolean).join(','),
    source_ae: get('RetrieveAETitle').split('\\')[0] || destinationAe,
  };
}

/** A text criterion of a C-FIND: trimmed, at most 64 characters, nothing that would end or split a DICOM value. */
export function queryText(raw: string | undefined, field: string): string {
  const value = (raw ?? '').trim();
  if (value.length > MAX_VALUE) throw invalidField(field, `at most ${MAX_VALUE} characters`);
  if (unsafe(value)) throw invalidField(field, 'contains a backslash or a control character');
  return value;
}

/** A modality criterion: one code (upper-cased), '' for none or All. */
export function queryModality(raw: string | undefined): string {
  const value = (raw ?? '').trim().toUpperCase();
  if (value === '' || value === 'ALL') return '';
  if (!/^[A-Z0-9]{1,16}$/.test(value)) throw invalidField('modality', 'one modality code, or All');
  return value;
}

/** query_fields: a JSON object whose one key names Study Description (0008,1030). */
function description(raw: string | undefined): string {
  if (raw === undefined || raw.trim() === '') return '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw invalidField('query_fields', 'must be a JSON object');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalidField('query_fields', 'must be a JSON object');
  }
  let value = '';
  for (const [key, v] of Object.entries(parsed)) {
    if (!DESCRIPTION_KEYS.has(key)) throw invalidField('query_fields', `${key} cannot be searched`);
    if (typeof v !== 'string') throw invalidField('query_fields', `${key} must be a string`);
    value = queryText(v, 'query_fields');
  }
  return value;
}

/** `YYYY-MM-DD`, `YYYY-MM-DD HH:MM[:SS]` or `YYYYMMDD` as DICOM `YYYYMMDD`; '' for none. */
function date(raw: string | undefined, field: string): string {
  const value = (raw ?? '').trim();
  if (!value) return '';
  const m = /^(\d{4})-?(\d{2})-?(\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2})?)?$/.exec(value);
  if (!m) throw invalidField(field, 'a date as YYYY-MM-DD');
  const [, y, mo, d] = m;
  const check = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d)) {
    throw invalidField(field, 'not a real date');
  }
  return `${y}${mo}${d}`;
}
