import {
  CUSTOM_FIELD_MEMO_MAX_LENGTH,
  CUSTOM_FIELD_TEXT_MAX_LENGTH,
  MESSAGES,
  customFieldParam,
  customFieldProblem,
  dicomToIsoDate,
  examDateProblems,
  type CustomField,
  type Study,
} from '@imaging-inbox/contract';
import { formatPatientName, patientNameFromDisplay } from '../../../lib/format';
import { t } from '../../../lib/i18n';

/** The exam fields the Exchange tab edits (the MRN has its own tab, Edit MRN). */
export const EXCHANGE_EXAM_FIELDS = [
  'patient_name',
  'patient_birth_date',
  'patient_sex',
  'accession_number',
  'study_description',
  'referring_physician',
  'study_date',
] as const;
export type ExchangeExamField = (typeof EXCHANGE_EXAM_FIELDS)[number];

export const EXCHANGE_FIELD_LABELS: Record<ExchangeExamField, string> = {
  patient_name: 'Patient name',
  patient_birth_date: 'Date of birth',
  patient_sex: 'Sex',
  accession_number: 'Accession number',
  study_description: 'Description',
  referring_physician: 'Referring physician',
  study_date: 'Study date',
};

/** Longest value of an exam field, as study/set accepts it. */
export const EXAM_FIELD_MAX_LENGTH = 256;

export interface ExchangeValues {
  exam: Record<ExchangeExamField, string>;
  /** keyed by custom field uuid */
  custom: Record<string, string>;
}

/** A field's problem: the key is an exam field name or a custom field uuid. */
export type ExchangeErrors = Record<string, string>;

const DATE_FIELDS: readonly ExchangeExamField[] = ['patient_birth_date', 'study_date'];
/** Person names (DICOM PN): edited as 'DOE, JOHN', stored as DOE^JOHN. */
const NAME_FIELDS: readonly ExchangeExamField[] = ['patient_name', 'referring_physician'];

/** A field as the form shows it: dates for date inputs, person names as every other screen does. */
function shown(study: Study, field: ExchangeExamField): string {
  if (DATE_FIELDS.includes(field)) return dicomToIsoDate(study[field]);
  if (NAME_FIELDS.includes(field)) return formatPatientName(study[field]);
  return study[field];
}

/** The form's starting values: the study's exam fields and its values of the account's fields. */
export function initialExchangeValues(study: Study, fields: CustomField[]): ExchangeValues {
  const exam = Object.fromEntries(EXCHANGE_EXAM_FIELDS.map((f) => [f, shown(study, f)])) as Record<
    ExchangeExamField,
    string
  >;
  const custom = Object.fromEntries(
    fields.map((field) => [field.uuid, study.customfields.find((v) => v.uuid === field.uuid)?.value ?? '']),
  );
  return { exam, custom };
}

/**
 * The form rules (SPEC.md section 5's messages): a required custom field needs a value ('Please
 * enter a value'), a radio or select value must be one of its options, texts have their length
 * limits, and dates are real dates, not in the future, the study not before the birth.
 */
export function exchangeErrors(values: ExchangeValues, fields: CustomField[], today: string): ExchangeErrors {
  const errors: ExchangeErrors = {};
  for (const field of fields) {
    const problem = customFieldProblem(field, values.custom[field.uuid] ?? '');
    if (problem === 'required') errors[field.uuid] = MESSAGES.formEnterValue;
    else if (problem === 'not_an_option') errors[field.uuid] = MESSAGES.formInvalidValue;
    else if (problem === 'too_long') {
      const max = field.type === 'memo' ? CUSTOM_FIELD_MEMO_MAX_LENGTH : CUSTOM_FIELD_TEXT_MAX_LENGTH;
      errors[field.uuid] = t('Please enter at most {{max}} characters', { max });
    }
  }
  for (const field of EXCHANGE_EXAM_FIELDS) {
    if (values.exam[field].trim().length > EXAM_FIELD_MAX_LENGTH) {
      errors[field] = t('Please enter at most {{max}} characters', { max: EXAM_FIELD_MAX_LENGTH });
    }
  }
  Object.assign(errors, examDateProblems(values.exam, today));
  return errors;
}

/**
 * The study/set parameters of a save: the exam fields that changed, and every custom field
 * (`customfield-{uuid}`), so the server checks the required ones too; unchanged values are no-ops.
 */
export function exchangeParams(
  study: Study,
  values: ExchangeValues,
  fields: CustomField[],
): Record<string, string> {
  const initial = initialExchangeValues(study, fields);
  const params: Record<string, string> = {};
  for (const field of EXCHANGE_EXAM_FIELDS) {
    const value = values.exam[field].trim();
    if (value === initial.exam[field].trim()) continue;
    // A name is edited as 'DOE, JOHN' and stored as DICOM writes it, DOE^JOHN.
    params[field] = NAME_FIELDS.includes(field) ? patientNameFromDisplay(value) : value;
  }
  for (const field of fields) params[customFieldParam(field.uuid)] = (values.custom[field.uuid] ?? '').trim();
  return params;
}
