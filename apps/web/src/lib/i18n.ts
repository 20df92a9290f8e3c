import { useSyncExternalStore } from 'react';
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES, isLanguage, type Language } from '@imaging-inbox/contract';
import type { Messages } from './messages';

/**
 * The product's texts. Keys are the English texts themselves (SPEC.md wording, verbatim), so English
 * needs no resource file and a missing translation can never show a key name; English lists only
 * its singular forms. French and Spanish live in `src/locales/*.ts`, each loaded with a dynamic
 * import only when chosen, so the sign-in page carries English alone (docs/decisions/0040).
 *
 * A few lines instead of i18next: the app uses only `t(text, values)` with `{{name}}` values and a
 * `count` that picks the plural form, and the sign-in page should not carry a full i18n library.
 */
export type { Messages };

/** The languages of the contract (English built in, the others lazily loaded tables). */
export const LANGUAGES = SUPPORTED_LANGUAGES;
export { LANGUAGE_NAMES, isLanguage, type Language };

const en: Messages = {
  '{{count}} exams_one': '{{count}} exam',
  '{{count}} recovery codes left_one': '{{count}} recovery code left',
  '{{count}} days_one': '{{count}} day',
  '{{count}} weeks_one': '{{count}} week',
  '{{count}} months_one': '{{count}} month',
  '{{count}} years_one': '{{count}} year',
  '{{count}} images_one': '{{count}} image',
  '{{count}} results_one': '{{count}} result',
  '{{criterion}} is close: {{exam}} vs {{order}} ({{count}} days apart)_one':
    '{{criterion}} is close: {{exam}} vs {{order}} ({{count}} day apart)',
  '{{criterion}} differs: {{exam}} vs {{order}} ({{count}} days apart)_one':
    '{{criterion}} differs: {{exam}} vs {{order}} ({{count}} day apart)',
  '{{count}} images in {{series}} series_one': '{{count}} image in {{series}} series',
  '{{count}} hours ({{minutes}} minutes)_one': '{{count}} hour ({{minutes}} minutes)',
  'Delete {{count}} exams_one': 'Delete {{count}} exam',
  'Restore {{count}} exams_one': 'Restore {{count}} exam',
  '{{count}} exams ({{files}} files, {{size}}) will be uploaded to {{destination}}._one':
    '{{count}} exam ({{files}} files, {{size}}) will be uploaded to {{destination}}.',
  '{{count}} exams in one ZIP with a DICOMDIR ({{size}})._one':
    '{{count}} exam in one ZIP with a DICOMDIR ({{size}}).',
  '{{count}} exams selected_one': '{{count}} exam selected',
  '{{count}} exams match_one': '{{count}} exam matches',
  'Expires in {{count}} days_one': 'Expires in {{count}} day',
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
  '{{count}} images that may show burned-in patient text were left out._one':
    '{{count}} image that may show burned-in patient text was left out.',
  '{{count}} files that could not be de-identified were left out._one':
    '{{count}} file that could not be de-identified was left out.',
};

/** Dynamic imports keep each table in its own chunk, fetched the first time it is chosen. */
const loaders: Readonly<Record<Exclude<Language, 'en'>, () => Promise<{ default: Messages }>>> = {
  fr: () => import('../locales/fr'),
  es: () => import('../locales/es'),
};

/** An account's own wording of a label for one language (label/list, edited by an admin). */
export interface LabelOverride {
  language: string;
  key: string;
  text: string;
}

const tables: Partial<Record<Language, Messages>> = { en };
let language: Language = 'en';
let plurals = new Intl.PluralRules('en');
let overrides = new Map<string, string>();
let overrideList: readonly LabelOverride[] = [];
const listeners = new Set<() => void>();

export interface Translator {
  t: (key: string, values?: TranslateValues) => string;
  language: Language;
}

function newTranslator(): Translator {
  return { t: (key, values) => t(key, values), language };
}

/** Replaced on every change that alters a text, so subscribed components render again. */
let translator: Translator = newTranslator();

function changed(): void {
  translator = newTranslator();
  for (const listener of listeners) listener();
}

function indexOverrides(): void {
  overrides = new Map(overrideList.filter((o) => o.language === language).map((o) => [o.key, o.text]));
}

/** The first of the browser's languages the app speaks (`fr-CA` counts as `fr`), else English. */
export function browserLanguage(
  preferred: readonly string[] = globalThis.navigator?.languages ?? [],
): Language {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return 'en';
}

export function currentLanguage(): Language {
  return language;
}

/** Loads the language's table (once) and makes it current; every subscribed component re-renders. */
export async function setLanguage(next: Language): Promise<void> {
  if (next !== 'en' && !tables[next]) tables[next] = (await loaders[next]()).default;
  if (next === language) return;
  language = next;
  plurals = new Intl.PluralRules(next);
  indexOverrides();
  if (typeof document !== 'undefined') document.documentElement.lang = next;
  changed();
}

/**
 * The account's label overrides (label/list). `t()` prefers an override of the current language
 * over the built-in text; an override may use the same `{{values}}` as the text it replaces.
 */
export function setLabelOverrides(list: readonly LabelOverride[]): void {
  overrideList = list;
  indexOverrides();
  changed();
}

export type TranslateValues = Record<string, string | number | null | undefined> & { count?: number };

function lookup(key: string, count: number | undefined): string {
  const table = tables[language] ?? en;
  if (count !== undefined) {
    const category = plurals.select(count);
    // French and Spanish `many` (a million and more) reads like `other` unless a table says otherwise.
    const plural =
      overrides.get(`${key}_${category}`) ??
      table[`${key}_${category}`] ??
      (category === 'many' ? (overrides.get(`${key}_other`) ?? table[`${key}_other`]) : undefined);
    if (plural !== undefined) return plural;
  }
  return overrides.get(key) ?? table[key] ?? key;
}

/** A value as the language writes it: numbers grouped its way ("1 000" in French); English as given. */
function shown(value: string | number | null | undefined): string {
  if (typeof value === 'number' && language !== 'en') return new Intl.NumberFormat(language).format(value);
  return String(value ?? '');
}

/** The text for `key` in the current language, its plural form by `count`, values filled in. */
export function t(key: string, values?: TranslateValues): string {
  const text = lookup(key, values?.count);
  if (values === undefined) return text;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_match, name: string) => shown(values[name]));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getTranslator = () => translator;

/**
 * The translator inside components (the shape react-i18next offered). The component renders again
 * when the language or the overrides change; `t` is a new function then, so memos keyed on it follow.
 */
export function useTranslation(): Translator {
  return useSyncExternalStore(subscribe, getTranslator, getTranslator);
}

export default { t };
