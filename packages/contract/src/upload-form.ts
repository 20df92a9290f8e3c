import { z } from 'zod';
import { MEGABYTE } from './limits.js';
import { MESSAGES } from './messages.js';
import type { ShareCodeAnswer } from './sends.js';

/**
 * The patient and exam form of the non-DICOM upload (SPEC.md sections 3 and 5), shared by the web
 * form and the server's wrap call so both apply the same rules with the same messages.
 *
 * Dates travel as ISO `YYYY-MM-DD` (what a date input gives), the time as `HH:mm`, the sex as F, M
 * or O. "Not in the future" needs a today: the web passes the user's local date, the server the
 * latest calendar date anywhere on earth (`latestTodayIso`), so a user east of UTC is never refused
 * a date that is today where they are.
 */
export const PATIENT_SEXES = ['F', 'M', 'O'] as const;
export type PatientSex = (typeof PATIENT_SEXES)[number];

export const PATIENT_FORM_FIELDS = [
  'firstName',
  'middleName',
  'lastName',
  'patientDOB',
  'patientMRN',
  'patientGender',
  'studyDate',
  'studyTime',
  'studyDescription',
] as const;
export type PatientFormField = (typeof PATIENT_FORM_FIELDS)[number];
export type PatientFormValues = Record<PatientFormField, string>;

/** Marked * in the form; an empty one is 'Please enter a value'. */
export const PATIENT_FORM_REQUIRED: readonly PatientFormField[] = [
  'firstName',
  'lastName',
  'patientDOB',
  'patientMRN',
  'patientGender',
  'studyDate',
];

export const emptyPatientForm: PatientFormValues = {
  firstName: '',
  middleName: '',
  lastName: '',
  patientDOB: '',
  patientMRN: '',
  patientGender: '',
  studyDate: '',
  studyTime: '',
  studyDescription: '',
};

/** DICOM limits: each PN component group is at most 64 characters, LO (MRN, description) 64. */
export const PATIENT_NAME_PART_MAX = 64;
export const PATIENT_NAME_MAX = 64;
export const LONG_STRING_MAX = 64;

/** Files the wrap call accepts, by what their bytes are (the browser's type is only a hint). */
export const WRAP_FILE_KINDS = ['pdf', 'jpeg', 'png', 'mp4'] as const;
export type WrapFileKind = (typeof WRAP_FILE_KINDS)[number];
/** The file picker's accept list for the non-DICOM upload. */
export const WRAP_ACCEPT =
  '.pdf,.jpg,.jpeg,.png,.mp4,.m4v,application/pdf,image/jpeg,image/png,video/mp4,video/x-m4v';
/**
 * Largest single file to wrap, far below MAX_UPLOAD_BYTES: PDFs and images are wrapped in memory, and
 * a video (streamed from disk) is read whole once by the ingest parser like any uploaded DICOM file.
 */
export const WRAP_MAX_FILE_BYTES = 100 * MEGABYTE;
/** Most files in one wrap call. */
export const WRAP_MAX_FILES = 50;
/** Largest decoded PNG, in pixels (a small compressed file can decode to gigabytes). */
export const WRAP_MAX_PIXELS = 50_000_000;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** A real calendar date in `YYYY-MM-DD`, from year 1800 on. */
export function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1800 && date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

export function isHhMm(value: string): boolean {
  return HH_MM.test(value);
}

/** The local calendar date of `now` as `YYYY-MM-DD`. */
export function localTodayIso(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The calendar date in UTC+14 (Kiribati): no place on earth is later. */
export function latestTodayIso(nowMs = Date.now()): string {
  return new Date(nowMs + 14 * 3600_000).toISOString().slice(0, 10);
}

/** A name part may not hold the PN separators ^ = \ or control characters. */
const NAME_PART = /^[^\\^=\p{Cc}]*$/u;
/** LO: no backslash, no control characters. */
const LONG_STRING = /^[^\\\p{Cc}]*$/u;

/** A field left out (not only left empty) is parsed as '' so it gets the same message. */
const field = () => z.string(MESSAGES.formInvalidValue).trim();

const text = (max: number, pattern: RegExp) =>
  field().max(max, MESSAGES.formInvalidValue).regex(pattern, MESSAGES.formInvalidValue).prefault('');

const requiredText = (max: number, pattern: RegExp) =>
  field()
    .min(1, MESSAGES.formEnterValue)
    .max(max, MESSAGES.formInvalidValue)
    .regex(pattern, MESSAGES.formInvalidValue)
    .prefault('');

const pastDate = (today: string, futureMessage: string) =>
  field()
    .min(1, MESSAGES.formEnterValue)
    .refine((v) => v === '' || isIsoDate(v), MESSAGES.formDateFormat)
    .refine((v) => !isIsoDate(v) || v <= today, futureMessage)
    .prefault('');

/** The form's rules for a given today (`YYYY-MM-DD`). */
export function patientFormSchema(today: string) {
  return z
    .object({
      firstName: requiredText(PATIENT_NAME_PART_MAX, NAME_PART),
      middleName: text(PATIENT_NAME_PART_MAX, NAME_PART),
      lastName: requiredText(PATIENT_NAME_PART_MAX, NAME_PART),
      patientDOB: pastDate(today, MESSAGES.formDobFuture),
      patientMRN: requiredText(LONG_STRING_MAX, LONG_STRING),
      patientGender: field()
        .min(1, MESSAGES.formEnterValue)
        .refine(
          (v) => v === '' || (PATIENT_SEXES as readonly string[]).includes(v),
          MESSAGES.formInvalidValue,
        )
        .prefault(''),
      studyDate: pastDate(today, MESSAGES.formStudyDateFuture),
      studyTime: field()
        .refine((v) => v === '' || isHhMm(v), MESSAGES.formTimeFormat)
        .prefault(''),
      studyDescription: text(LONG_STRING_MAX, LONG_STRING),
    })
    .superRefine((form, ctx) => {
      if (isIsoDate(form.patientDOB) && isIsoDate(form.studyDate) && form.studyDate < form.patientDOB) {
        ctx.addIssue({ code: 'custom', path: ['studyDate'], message: MESSAGES.formStudyBeforeBirth });
      }
      const name = [form.lastName, form.firstName, form.middleName].join('^').replace(/\^+$/, '');
      if (name.length > PATIENT_NAME_MAX) {
        ctx.addIssue({ code: 'custom', path: ['lastName'], message: MESSAGES.formInvalidValue });
      }
    });
}

export type PatientForm = z.output<ReturnType<typeof patientFormSchema>>;

/** Field → first message, for the form and for the server's error_data. */
export function patientFormErrors(
  values: Partial<Record<PatientFormField, string | undefined>>,
  today: string,
) {
  const result = patientFormSchema(today).safeParse(values);
  if (result.success) return { ok: true as const, form: result.data };
  const errors: Partial<Record<PatientFormField, string>> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as PatientFormField | undefined;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return { ok: false as const, errors };
}

/** DICOM PN `LAST^FIRST^MIDDLE`, without trailing empty components. */
export function dicomPatientName(form: Pick<PatientForm, 'lastName' | 'firstName' | 'middleName'>): string {
  return [form.lastName, form.firstName, form.middleName].join('^').replace(/\^+$/, '');
}

/** The 202 answer of storage/namespace/{id}/wrap: the study and one entry per wrapped file. */
export interface WrapUploadAnswer {
  status: 'OK';
  study_uid: string;
  study_uuid: string;
  instances: {
    filename: string;
    kind: WrapFileKind;
    sop_class_uid: string;
    sop_instance_uid: string;
    series_uid: string;
    duplicate: boolean;
  }[];
}

/**
 * namespace/share_code asked by namespace_id (members only): whom the namespace's share code reaches,
 * as a lookup by code answers, with `share_code` the namespace's own else its account's, and the
 * share-code settings the upload wizard reads.
 */
export interface ShareCodeSettingsAnswer extends ShareCodeAnswer {
  settings: { enable_dicom_wrapping: '0' | '1' };
}
