import type { StudyFilters } from '@imaging-inbox/contract';
import { parseTypedDay, rangeBounds, toDicomDay, type DateRangeValue } from '../../../lib/dates';
import type { AdvancedFilters } from './advanced-filters';
import { modalityFilter } from './modality-selection';

/** What the user searched: the patient-name box and the advanced filters. */
export interface AppliedSearch {
  patientName: string;
  advanced: AdvancedFilters;
}

/** Partial match: text fields search anywhere, % in the input stays a wildcard (LAST%FIRST). */
export function likeValue(text: string): string {
  return `%${text.trim()}%`;
}

function addDateRange(
  out: StudyFilters,
  field: 'study_date' | 'created',
  value: DateRangeValue,
  today: Date,
): void {
  const { from, to } = rangeBounds(value, today);
  if (field === 'study_date') {
    if (from) out['filter.study_date.ge'] = toDicomDay(from);
    if (to) out['filter.study_date.le'] = toDicomDay(to);
    return;
  }
  // Whole days: the server reads a date-only upper bound as the end of that day in filter.timezone.
  if (from) out['filter.created.ge'] = from;
  if (to) out['filter.created.le'] = to;
}

/**
 * study/list filter keys for a search. Empty fields add nothing; the patient name comes from the
 * advanced panel when set there, else from the search-bar box. Uploaded dates are local days
 * interpreted in the browser's time zone.
 */
export function searchFilters(search: AppliedSearch, today: Date, timeZone: string): StudyFilters {
  const a = search.advanced;
  const out: StudyFilters = {};
  const patientName = a.patientName.trim() || search.patientName.trim();
  if (patientName) out['filter.patient_name.like'] = likeValue(patientName);
  if (a.mrn.trim()) out['filter.patientid.like'] = likeValue(a.mrn);
  const birthDay = a.birthDate.trim() ? parseTypedDay(a.birthDate) : null;
  if (birthDay) out['filter.patient_birth_date.equals'] = toDicomDay(birthDay);
  if (a.sex) out['filter.patient_sex.equals'] = a.sex;
  if (a.accessionNumber.trim()) out['filter.accession_number.equals'] = a.accessionNumber.trim();
  if (a.referringPhysician.trim()) out['filter.referring_physician.like'] = likeValue(a.referringPhysician);
  const modalities = modalityFilter(a.modalities);
  if (modalities) out['filter.modality.in'] = JSON.stringify(modalities);
  if (a.starred) out['filter.star.equals'] = a.starred;
  if (a.thin) out['filter.thin.equals'] = a.thin;
  if (a.studyUid.trim()) out['filter.study_uid.equals'] = a.studyUid.trim();
  if (a.studyUuid.trim()) out['filter.uuid.equals'] = a.studyUuid.trim();
  if (a.sourceTitle.trim()) out['filter.source_ae_title.like'] = likeValue(a.sourceTitle);
  if (a.destinationTitle.trim()) out['filter.destination_ae_title.like'] = likeValue(a.destinationTitle);
  addDateRange(out, 'study_date', a.studyDate, today);
  addDateRange(out, 'created', a.uploadedDate, today);
  if (out['filter.created.ge'] || out['filter.created.le']) out['filter.timezone'] = timeZone;
  if (a.tags.length > 0) out['filter.tags.in'] = JSON.stringify(a.tags);
  if (a.studyDescription.trim()) out['filter.study_description.like'] = likeValue(a.studyDescription);
  return out;
}

/** How many advanced filters are set, the patient name aside (shown on the advanced toggle). */
export function countAdvancedFilters(advanced: AdvancedFilters, today: Date): number {
  const keys = Object.keys(
    searchFilters({ patientName: '', advanced: { ...advanced, patientName: '' } }, today, 'UTC'),
  );
  return keys.filter((k) => k !== 'filter.timezone').length;
}
