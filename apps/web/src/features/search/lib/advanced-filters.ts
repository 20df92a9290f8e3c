import { ALL_DATES, parseTypedDay, type DateRangeValue } from '../../../lib/dates';
import { ALL_MODALITIES, type ModalitySelection } from './modality-selection';

export type TriState = '' | '1' | '0';
export type SexFilter = '' | 'M' | 'F' | 'O';

/** The advanced search panel's fields (SPEC.md section 2). */
export interface AdvancedFilters {
  patientName: string;
  mrn: string;
  /** YYYY-MM-DD once typed in the user's date format (DayField), else the text as typed. */
  birthDate: string;
  sex: SexFilter;
  accessionNumber: string;
  referringPhysician: string;
  modalities: ModalitySelection;
  starred: TriState;
  thin: TriState;
  studyUid: string;
  studyUuid: string;
  sourceTitle: string;
  destinationTitle: string;
  studyDate: DateRangeValue;
  uploadedDate: DateRangeValue;
  tags: string[];
  studyDescription: string;
}

export const EMPTY_ADVANCED_FILTERS: AdvancedFilters = {
  patientName: '',
  mrn: '',
  birthDate: '',
  sex: '',
  accessionNumber: '',
  referringPhysician: '',
  modalities: ALL_MODALITIES,
  starred: '',
  thin: '',
  studyUid: '',
  studyUuid: '',
  sourceTitle: '',
  destinationTitle: '',
  studyDate: ALL_DATES,
  uploadedDate: ALL_DATES,
  tags: [],
  studyDescription: '',
};

export const SEX_OPTIONS: { value: SexFilter; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'M', label: 'M' },
  { value: 'F', label: 'F' },
  { value: 'O', label: 'O' },
];

export const TRI_STATE_OPTIONS: { value: TriState; label: string }[] = [
  { value: '', label: 'All' },
  { value: '1', label: 'Yes' },
  { value: '0', label: 'No' },
];

/**
 * The filters with their birth date as YYYY-MM-DD: searches saved before the field followed the
 * user's date format hold it as typed then (MM-DD-YYYY).
 */
export function withIsoBirthDate(filters: AdvancedFilters): AdvancedFilters {
  const day = filters.birthDate.trim() ? parseTypedDay(filters.birthDate) : null;
  return day && day !== filters.birthDate ? { ...filters, birthDate: day } : filters;
}
