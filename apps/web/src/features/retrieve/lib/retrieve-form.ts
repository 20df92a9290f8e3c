import {
  searchDateRange,
  type DestinationSearchResult,
  type RetrieveSearchForm,
} from '@imaging-inbox/contract';

export const EMPTY_SEARCH: RetrieveSearchForm = {
  destination_id: '',
  patient_name: '',
  patientid: '',
  accession_number: '',
  study_description: '',
  modality: '',
  date_mode: 'between',
  start_date: '',
  end_date: '',
};

/** Modalities offered beside All (a destination may hold any; these are the common ones). */
export const RETRIEVE_MODALITIES = [
  'CR',
  'CT',
  'DX',
  'MG',
  'MR',
  'NM',
  'OT',
  'PT',
  'RF',
  'US',
  'XA',
] as const;

/** The form as destination/search takes it (copy_to is the page's group). */
export function searchParams(form: RetrieveSearchForm, copyTo: string) {
  const range = searchDateRange(form.date_mode, form.start_date, form.end_date);
  const description = form.study_description.trim();
  return {
    uuid: form.destination_id,
    copy_to: copyTo,
    patient_name: form.patient_name.trim() || undefined,
    patientid: form.patientid.trim() || undefined,
    accession_number: form.accession_number.trim() || undefined,
    modality: form.modality || undefined,
    query_fields: description ? JSON.stringify({ StudyDescription: description }) : undefined,
    start_datetime: range.start || undefined,
    end_datetime: range.end || undefined,
  };
}

export interface PatientGroup {
  key: string;
  patient_name: string;
  patientid: string;
  patient_birth_date: string;
  patient_sex: string;
  exams: DestinationSearchResult[];
}

/** Results grouped by patient (MRN and name), in the order they were found. */
export function groupByPatient(results: DestinationSearchResult[]): PatientGroup[] {
  const groups = new Map<string, PatientGroup>();
  for (const r of results) {
    const key = `${r.patientid}\u0000${r.patient_name}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        key,
        patient_name: r.patient_name,
        patientid: r.patientid,
        patient_birth_date: r.patient_birth_date,
        patient_sex: r.patient_sex,
        exams: [],
      };
      groups.set(key, group);
    }
    group.exams.push(r);
  }
  return [...groups.values()];
}
