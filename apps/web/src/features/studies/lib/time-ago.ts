import { currentLanguage } from '../../../lib/i18n';

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/**
 * '5 minutes ago' (or 'il y a 5 minutes') for an ISO 8601 time or epoch milliseconds, in the
 * current language; the raw value if unreadable. Less than a minute reads as "now".
 */
export function timeAgo(when: string | number, now = Date.now()): string {
  const ms = typeof when === 'number' ? when : Date.parse(when);
  if (Number.isNaN(ms)) return String(when);
  const seconds = Math.round((ms - now) / 1000);
  const format = new Intl.RelativeTimeFormat(currentLanguage(), { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(0, 'second');
}
