import { MESSAGES } from './messages.js';
import { isIsoDate } from './upload-form.js';

/** The two dates of an exam, as ISO `YYYY-MM-DD` ('' for no date). */
export interface ExamDates {
  patient_birth_date: string;
  study_date: string;
}

/** DICOM `YYYYMMDD` as ISO `YYYY-MM-DD`; anything else is returned as it is, for the rules to judge. */
export function dicomToIsoDate(value: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : value;
}

/**
 * The rules for an exam's dates (SPEC.md section 5's messages), shared by the Exchange form and
 * study/set: each is a real date and not ahead of `today`, and the study is not before the birth
 * (reported on the study date).
 */
export function examDateProblems(dates: ExamDates, today: string): Partial<Record<keyof ExamDates, string>> {
  const problems: Partial<Record<keyof ExamDates, string>> = {};
  for (const [field, future] of [
    ['patient_birth_date', MESSAGES.formDobFuture],
    ['study_date', MESSAGES.formStudyDateFuture],
  ] as const) {
    const value = dates[field];
    if (value === '') continue;
    if (!isIsoDate(value)) problems[field] = MESSAGES.formDateFormat;
    else if (value > today) problems[field] = future;
  }
  const { patient_birth_date: birth, study_date: study } = dates;
  if (!problems.study_date && !problems.patient_birth_date && birth && study && study < birth) {
    problems.study_date = MESSAGES.formStudyBeforeBirth;
  }
  return problems;
}
