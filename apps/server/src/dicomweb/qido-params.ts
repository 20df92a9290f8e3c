import type { Params } from '../http/params.js';
import { invalidField } from '../domain/errors.js';

/**
 * Translates QIDO-RS study matching keys (PS3.18 8.3.4) into the api/v3 study filters, so QIDO and
 * study/list share one search implementation. `*` is the wildcard; `?` is not supported and
 * matches itself. Keys may be given by keyword or by tag.
 */
const KEYWORDS: Record<string, string> = {
  '00100010': 'PatientName',
  '00100020': 'PatientID',
  '00080050': 'AccessionNumber',
  '00080020': 'StudyDate',
  '00080061': 'ModalitiesInStudy',
  '0020000D': 'StudyInstanceUID',
  '00080090': 'ReferringPhysicianName',
  '00081030': 'StudyDescription',
  '00100040': 'PatientSex',
  '00100030': 'PatientBirthDate',
};

const MAX_LIMIT = 1000;

const wildcard = (value: string) => value.replace(/\*/g, '%');

function dateRange(value: string, key: string): { ge?: string; le?: string } {
  const m = /^(\d{8})?(-)?(\d{8})?$/.exec(value);
  if (!m || (!m[1] && !m[3])) throw invalidField(key, 'must be YYYYMMDD or a YYYYMMDD-YYYYMMDD range');
  if (!m[2]) return { ge: m[1], le: m[1] };
  return { ...(m[1] ? { ge: m[1] } : {}), ...(m[3] ? { le: m[3] } : {}) };
}

export interface QidoPaging {
  limit: number;
  offset: number;
  includeAll: boolean;
}

export function qidoPaging(query: Params): QidoPaging {
  const limit = query['limit'] === undefined ? 100 : Number(query['limit']);
  const offset = query['offset'] === undefined ? 0 : Number(query['offset']);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw invalidField('limit', `1 to ${MAX_LIMIT}`);
  if (!Number.isInteger(offset) || offset < 0) throw invalidField('offset', 'must be 0 or more');
  const include = (query['includefield'] ?? '').split(',');
  return { limit, offset, includeAll: include.includes('all') };
}

/** api/v3 `filter.*` params equivalent to the QIDO study query. */
export function qidoStudyFilters(query: Params): Params {
  const filters: Params = {};
  for (const [rawKey, rawValue] of Object.entries(query)) {
    const key = KEYWORDS[rawKey.toUpperCase()] ?? rawKey;
    const value = rawValue.trim();
    if (!value) continue;
    switch (key) {
      case 'PatientName':
        filters['filter.patient_name.like'] = wildcard(value);
        break;
      case 'PatientID':
        filters['filter.patientid.like'] = wildcard(value);
        break;
      case 'AccessionNumber':
        filters['filter.accession_number.equals'] = value;
        break;
      case 'StudyInstanceUID':
        filters['filter.study_uid.equals'] = value;
        break;
      case 'ReferringPhysicianName':
        filters['filter.referring_physician.like'] = wildcard(value);
        break;
      case 'StudyDescription':
        filters['filter.study_description.like'] = wildcard(value);
        break;
      case 'PatientSex':
        filters['filter.patient_sex.equals'] = value;
        break;
      case 'PatientBirthDate':
        filters['filter.patient_birth_date.equals'] = value;
        break;
      case 'ModalitiesInStudy':
        filters['filter.modality.in'] = JSON.stringify(value.split(/[,\\]/).filter(Boolean));
        break;
      case 'StudyDate': {
        const range = dateRange(value, key);
        if (range.ge) filters['filter.study_date.ge'] = range.ge;
        if (range.le) filters['filter.study_date.le'] = range.le;
        break;
      }
      default:
        // Unsupported matching keys are ignored, as PS3.18 allows; paging keys are read elsewhere.
        break;
    }
  }
  return filters;
}
