import type { DateFormat } from '@imaging-inbox/contract';
import { t } from './i18n';

/**
 * A date format as the user's language writes its letters, for placeholders and hints: MM-DD-YYYY
 * reads "MM-JJ-AAAA" in French and "MM-DD-AAAA" in Spanish. The format itself (what is typed and
 * stored) stays the same.
 */
export function dateFormatHint(format: DateFormat): string {
  // Each letter group of a format is one of these three, separated by '-' or '/'.
  const letters: Record<string, string> = { YYYY: t('YYYY'), MM: t('MM'), DD: t('DD') };
  return format.replace(/YYYY|MM|DD/g, (group) => letters[group] ?? group);
}
