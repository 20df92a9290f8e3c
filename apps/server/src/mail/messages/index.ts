import { DEFAULT_LANGUAGE, type Language } from '@imaging-inbox/contract';
import { en, type MailMessageKey, type MailMessages } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';

export type { MailMessageKey, MailMessages };

/** Every e-mail text in every supported language. */
export const MAIL_MESSAGES: Record<Language, MailMessages> = { en, fr, es };

export type MailParams = Record<string, string | number>;

/** The names of a text's {placeholders}, sorted (the tables must agree on them). */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
}

/**
 * The text of `key` in `language` with its placeholders filled. A value is inserted as given: the
 * mails are plain text, so nothing needs escaping, and a value is never read as a placeholder.
 */
export function mailText(language: Language, key: MailMessageKey, params: MailParams = {}): string {
  const template = MAIL_MESSAGES[language][key] ?? MAIL_MESSAGES[DEFAULT_LANGUAGE][key];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

/** One language's texts, for composing a mail: `t('share.open', { link })`. */
export function mailTexts(language: Language): (key: MailMessageKey, params?: MailParams) => string {
  return (key, params) => mailText(language, key, params);
}

/** A moment as the reader's language writes it, in UTC (the mail does not know the reader's zone). */
export function mailDate(language: Language, at: number): string {
  const when = new Intl.DateTimeFormat(language, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(new Date(at));
  return `${when} UTC`;
}
