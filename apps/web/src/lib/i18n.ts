/**
 * The product's texts. Keys are the English texts themselves (SPEC.md wording, verbatim), so English
 * needs no resource file and a missing translation can never show a key name; English lists only
 * its singular forms. Another language adds its own table of the same shape.
 *
 * A few lines instead of i18next: the app uses only `t(text, values)` with `{{name}}` values and a
 * `count` that picks the plural form, and the sign-in page should not carry a full i18n library.
 */
type Messages = Record<string, string>;

const en: Messages = {
  '{{count}} exams_one': '{{count}} exam',
  '{{count}} days_one': '{{count}} day',
  '{{count}} weeks_one': '{{count}} week',
  '{{count}} months_one': '{{count}} month',
  '{{count}} years_one': '{{count}} year',
  '{{count}} images_one': '{{count}} image',
  '{{count}} hours ({{minutes}} minutes)_one': '{{count}} hour ({{minutes}} minutes)',
  'Delete {{count}} exams_one': 'Delete {{count}} exam',
  'Restore {{count}} exams_one': 'Restore {{count}} exam',
  '{{count}} exams ({{files}} files, {{size}}) will be uploaded to {{destination}}._one':
    '{{count}} exam ({{files}} files, {{size}}) will be uploaded to {{destination}}.',
  '{{count}} exams in one ZIP with a DICOMDIR ({{size}})._one':
    '{{count}} exam in one ZIP with a DICOMDIR ({{size}}).',
  '{{count}} exams selected_one': '{{count}} exam selected',
  'and {{count}} more failed files_one': 'and {{count}} more failed file',
  '{{count}} exams found in {{files}} files ({{size}})_one':
    '{{count}} exam found in {{files}} files ({{size}})',
  '{{count}} other files are not sent: not DICOM, or not listed in the DICOMDIR_one':
    '{{count}} other file is not sent: not DICOM, or not listed in the DICOMDIR',
  '{{count}} files of the selection cannot be uploaded_one':
    '{{count}} file of the selection cannot be uploaded',
  '{{count}} PDF, image or video files are not DICOM: upload them with "PDF, image or video files" above._one':
    '{{count}} PDF, image or video file is not DICOM: upload it with "PDF, image or video files" above.',
  'These {{count}} documents ({{size}}) are sent as one exam: please enter its patient and exam details._one':
    'This document ({{size}}) is sent as one exam: please enter its patient and exam details.',
};

const language = 'en';
const tables: Record<string, Messages> = { en };
const plurals = new Intl.PluralRules(language);

export type TranslateValues = Record<string, string | number | null | undefined> & { count?: number };

/** The text for `key` in the current language, its plural form by `count`, values filled in. */
export function t(key: string, values?: TranslateValues): string {
  const table = tables[language] ?? {};
  const count = values?.count;
  const text =
    (count === undefined ? undefined : table[`${key}_${plurals.select(count)}`]) ?? table[key] ?? key;
  if (values === undefined) return text;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_match, name: string) => String(values[name] ?? ''));
}

const translation = { t };

/** The same translator inside components (the shape react-i18next offered). */
export function useTranslation(): typeof translation {
  return translation;
}

export default translation;
