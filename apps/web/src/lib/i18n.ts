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
