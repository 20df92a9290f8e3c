/**
 * The languages the product speaks (issue 17 "Translations"): the web app's locale tables, the
 * server's e-mail messages and the profile's language choice all use these codes.
 */
export const SUPPORTED_LANGUAGES = ['en', 'fr', 'es'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
/** What everything falls back to when no choice applies. */
export const DEFAULT_LANGUAGE: Language = 'en';

/** Each language named in itself, as a language picker shows it. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  fr: 'Français',
  es: 'Español',
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

/**
 * The account setting (setting/set on `account:<uuid>`) naming the account's language: e-mails to
 * its users who chose none are written in it.
 */
export const ACCOUNT_LANGUAGE_SETTING = 'default_language';

/** account/set's parameter for the account's language (Ambra's `settings.<name>` form). */
export const ACCOUNT_LANGUAGE_PARAM = `settings.${ACCOUNT_LANGUAGE_SETTING}` as const;

export const ACCOUNT_LANGUAGE_MESSAGES = {
  invalid: `Choose one of ${SUPPORTED_LANGUAGES.join(', ')}, or nothing for English`,
  notSettable: 'Only the default language of the account is changed here',
} as const;
