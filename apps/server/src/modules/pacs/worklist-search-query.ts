import { MESSAGES } from '@imaging-inbox/contract';
import type { DestinationWorklistItem } from '@imaging-inbox/contract';
import { textOf } from '../../dimse/client/index.js';
import type { DicomAttributes, QueryKeys } from '../../dimse/client/index.js';
import { DomainError, invalidField } from '../../domain/errors.js';
import { queryModality, queryText } from './search-query.js';

/** A worklist search (destination/search/mwl) as the job runs it: DICOM values, '' for none. */
export interface WorklistSearchQuery {
  patient_name: string;
  patientid: string;
  accession_number: string;
  patient_birth_date: string;
  patient_sex: string;
  /** `YYYYMMDD` or `YYYYMMDD-YYYYMMDD`. */
  order_date: string;
  order_number: string;
  modality: string;
}

export type WorklistSearchParams = { [K in keyof WorklistSearchQuery]?: string | undefined };

/** Ambra's parameters and the worklist attributes they match, checked one by one. */
const CRITERIA = Object.keys({
  patient_name: 0,
  patientid: 0,
  accession_number: 0,
  patient_birth_date: 0,
  patient_sex: 0,
  order_date: 0,
  order_number: 0,
  modality: 0,
} satisfies Record<keyof WorklistSearchQuery, 0>) as (keyof WorklistSearchQuery)[];

/** Every worklist value we keep is cut to this length: a peer's answer is bounded in what we hold. */
const MAX_KEPT = 256;

/**
 * Checks a destination/search/mwl request and answers the query: at least one criterion (a
 * modality other than All counts), else the search page's 'Please enter a value to perform search.'
 */
export function parseWorklistQuery(params: WorklistSearchParams): WorklistSearchQuery {
  const query: WorklistSearchQuery = {
    patient_name: queryText(params.patient_name, 'patient_name'),
    patientid: queryText(params.patientid, 'patientid'),
    accession_number: queryText(params.accession_number, 'accession_number'),
    patient_birth_date: dateOrRange(params.patient_birth_date, 'patient_birth_date', false),
    patient_sex: sex(params.patient_sex),
    order_date: dateOrRange(params.order_date, 'order_date', true),
    order_number: queryText(params.order_number, 'order_number'),
    modality: queryModality(params.modality),
  };
  if (!CRITERIA.some((f) => query[f] !== '')) {
    throw new DomainError('MISSING_FIELDS', 'criterion', MESSAGES.retrieveEnterValue);
  }
  return query;
}

/**
 * The C-FIND identifier (Modality Worklist Information Model – FIND): the matches asked for and
 * every return key an item shows, the scheduled step's in its sequence.
 */
export function worklistSearchKeys(query: WorklistSearchQuery): QueryKeys {
  return {
    SpecificCharacterSet: '',
    AccessionNumber: query.accession_number,
    ReferringPhysicianName: '',
    // A name is matched from its start, as a study search does, unless it has wildcards.
    PatientName:
      query.patient_name && !/[*?]/.test(query.patient_name) ? `${query.patient_name}*` : query.patient_name,
    PatientID: query.patientid,
    PatientBirthDate: query.patient_birth_date,
    PatientSex: query.patient_sex,
    StudyInstanceUID: '',
    RequestedProcedureDescription: '',
    RequestedProcedureID: query.order_number,
    ScheduledProcedureStepSequence: [
      {
        Modality: query.modality,
        ScheduledStationAETitle: '',
        ScheduledProcedureStepStartDate: query.order_date,
        ScheduledProcedureStepStartTime: '',
        ScheduledProcedureStepDescription: '',
      },
    ],
  };
}

/** One worklist answer as an item: its first scheduled step's values, each trimmed and bounded. */
export function worklistItemOf(result: DicomAttributes): DestinationWorklistItem {
  const sequence = result['ScheduledProcedureStepSequence'];
  const step: DicomAttributes = Array.isArray(sequence) && typeof sequence[0] === 'object' ? sequence[0] : {};
  const get = (from: DicomAttributes, keyword: string) => textOf(from, keyword).trim().slice(0, MAX_KEPT);
  return {
    accession_number: get(result, 'AccessionNumber'),
    patient_name: get(result, 'PatientName'),
    patientid: get(result, 'PatientID'),
    patient_birth_date: get(result, 'PatientBirthDate'),
    patient_sex: get(result, 'PatientSex'),
    referring_physician: get(result, 'ReferringPhysicianName'),
    order_number: get(result, 'RequestedProcedureID'),
    requested_procedure:
      get(result, 'RequestedProcedureDescription') || get(step, 'ScheduledProcedureStepDescription'),
    study_uid: get(result, 'StudyInstanceUID'),
    modality: get(step, 'Modality'),
    scheduled_date: get(step, 'ScheduledProcedureStepStartDate'),
    scheduled_time: get(step, 'ScheduledProcedureStepStartTime'),
    // A station may hold several AE titles (multi-valued): the first names it.
    scheduled_station_ae: get(step, 'ScheduledStationAETitle').split('\\')[0]!.trim(),
  };
}

function sex(raw: string | undefined): string {
  const value = (raw ?? '').trim().toUpperCase();
  if (value !== '' && !['M', 'F', 'O'].includes(value)) throw invalidField('patient_sex', 'M, F or O');
  return value;
}

/** `YYYY-MM-DD` or `YYYYMMDD` as DICOM `YYYYMMDD`; with `range`, also `YYYYMMDD-YYYYMMDD`. */
function dateOrRange(raw: string | undefined, field: string, range: boolean): string {
  const value = (raw ?? '').trim();
  if (!value) return '';
  const between = range ? /^(\d{8})-(\d{8})$/.exec(value) : null;
  if (between) {
    const [start, end] = [oneDate(between[1]!, field), oneDate(between[2]!, field)];
    if (start > end) throw invalidField(field, 'the start of the range is after its end');
    return `${start}-${end}`;
  }
  return oneDate(value, field);
}

function oneDate(value: string, field: string): string {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(value);
  const format = `a date as YYYY-MM-DD${field === 'order_date' ? ', or a range YYYYMMDD-YYYYMMDD' : ''}`;
  if (!m) throw invalidField(field, format);
  const [, y, mo, d] = m;
  const check = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d)) {
    throw invalidField(field, 'not a real date');
  }
  return `${y}${mo}${d}`;
}
