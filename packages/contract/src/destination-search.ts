import { MESSAGES } from './messages.js';

/** How the Retrieve form's two dates are read (SPEC.md section 5). */
export type DateMode = 'between' | 'equal' | 'before' | 'after';

/** The Retrieve Study form as the user filled it (dates ISO `YYYY-MM-DD`, '' for none). */
export interface RetrieveSearchForm {
  destination_id: string;
  patient_name: string;
  patientid: string;
  accession_number: string;
  study_description: string;
  /** '' for All. */
  modality: string;
  date_mode: DateMode;
  start_date: string;
  end_date: string;
}

/** At least one of these must be given for a destination search (a modality other than All counts). */
export const SEARCH_CRITERIA = [
  'patient_name',
  'patientid',
  'accession_number',
  'study_description',
  'modality',
] as const;

/** The date range a mode makes of the two dates: Equal is one day, Before the end only, After the start only. */
export function searchDateRange(mode: DateMode, start: string, end: string): { start: string; end: string } {
  switch (mode) {
    case 'equal':
      return { start, end: start };
    case 'before':
      return { start: '', end };
    case 'after':
      return { start, end: '' };
    default:
      return { start, end };
  }
}

/**
 * The first thing wrong with the form, as the message the page shows, or null: a destination and one
 * criterion are needed; with Between both dates or none; no date ahead of `today`; start before end.
 */
export function retrieveSearchProblem(form: RetrieveSearchForm, today: string): string | null {
  const criterion = SEARCH_CRITERIA.some((f) => form[f].trim() !== '');
  if (!form.destination_id || !criterion) return MESSAGES.retrieveEnterValue;
  if (form.date_mode === 'between' && (form.start_date === '') !== (form.end_date === '')) {
    return MESSAGES.retrieveBothDates;
  }
  const range = searchDateRange(form.date_mode, form.start_date, form.end_date);
  if ((range.start && range.start > today) || (range.end && range.end > today))
    return MESSAGES.retrieveFutureDate;
  if (range.start && range.end && range.start > range.end) return MESSAGES.retrieveDateOrder;
  return null;
}
