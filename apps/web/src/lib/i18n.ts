import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';

/**
 * Keys are the English texts themselves (SPEC.md wording, verbatim), so English needs no resource
 * file and a missing translation can never show a key name; English lists only its singular forms.
 * Other languages add resource bundles.
 */
const en = {
  '{{count}} exams_one': '{{count}} exam',
  '{{count}} images_one': '{{count}} image',
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

void i18next.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  keySeparator: false,
  nsSeparator: false,
  resources: { en: { translation: en } },
  interpolation: { escapeValue: false },
  initAsync: false,
});

export default i18next;
