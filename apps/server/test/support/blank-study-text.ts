/** The text columns a study row must have, for tests that insert study rows directly. */
export const STUDY_TEXT_COLUMNS = [
  'patient_name',
  'patient_name_key',
  'patientid',
  'patientid_key',
  'patient_sex',
  'patient_birth_date',
  'patient_age',
  'accession_number',
  'study_description',
  'study_description_key',
  'study_time',
  'referring_physician',
  'referring_physician_key',
  'source_ae_title',
  'destination_ae_title',
  'institution_name',
] as const;

/** Every text column of a study row, empty. */
export const BLANK_STUDY_TEXT = Object.fromEntries(
  STUDY_TEXT_COLUMNS.map((column) => [column, '']),
) as Record<(typeof STUDY_TEXT_COLUMNS)[number], string>;
