import { DEFAULT_DATE_FORMAT, formatDay, type DateFormat } from '@imaging-inbox/contract';
import { MEGABYTE, NAME_CUT } from '@imaging-inbox/contract';
import { currentLanguage, t } from './i18n';

/** Group and destination names are cut to 25 characters in dropdowns (SPEC.md section 9). */
export function cutName(name: string, max: number = NAME_CUT): string {
  return name.length > max ? `${name.slice(0, max)}…` : name;
}

/**
 * Bytes shown in MB with one decimal (SPEC.md); below 1 MB in whole KB, so a small study does not
 * read '0.0 MB' (any bytes at all are at least 1 KB).
 */
export function formatMegabytes(bytes: number): string {
  const megabytes = bytes >= MEGABYTE;
  const value = megabytes
    ? Number((bytes / MEGABYTE).toFixed(1))
    : bytes > 0
      ? Math.max(1, Math.floor(bytes / 1024))
      : 0;
  const language = currentLanguage();
  // English keeps the SPEC's "12.3 MB" / "127 KB"; other languages write their own ("12,3 Mo").
  if (language === 'en') return megabytes ? `${value.toFixed(1)} MB` : `${value} KB`;
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit: megabytes ? 'megabyte' : 'kilobyte',
    minimumFractionDigits: megabytes ? 1 : 0,
    maximumFractionDigits: megabytes ? 1 : 0,
  }).format(value);
}

/** DICOM YYYYMMDD to the default display format MM-DD-YYYY; other input is returned as is. */
export function formatDicomDate(
  value: string | null | undefined,
  format: DateFormat = DEFAULT_DATE_FORMAT,
): string {
  if (!value) return '';
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  return m ? formatDay(m[1]!, m[2]!, m[3]!, format) : value;
}

/**
 * A modality value as people read it: the DICOM multi-value `SR\US` (or a list) as "SR, US";
 * empty parts dropped, '' when there is none.
 */
export function formatModalities(value: string | readonly string[] | null | undefined): string {
  const parts = typeof value === 'string' ? value.split(/[\\,]/) : (value ?? []);
  return parts
    .map((part) => part.trim())
    .filter(Boolean)
    .join(', ');
}

// Person names are written alike by the pages and the server's exports.
export { formatPatientName, patientNameFromDisplay } from '@imaging-inbox/contract';

/** How the signed-in user reads dates: their date format, and their time zone (null: the browser's). */
export interface DatePreferences {
  dateFormat: DateFormat;
  timeZone: string | null;
}

export const DEFAULT_DATE_PREFERENCES: DatePreferences = { dateFormat: DEFAULT_DATE_FORMAT, timeZone: null };

// Building an Intl formatter is far slower than using one; a history list formats dozens of times.
const timestampParts = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(timeZone: string | null): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let formatter = timestampParts.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: timeZone ?? undefined,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    timestampParts.set(key, formatter);
  }
  return formatter;
}

/** An ISO timestamp as "<day in the user's format> HH:mm" in the user's zone; other input as is. */
export function formatTimestamp(
  value: string | null | undefined,
  preferences: DatePreferences = DEFAULT_DATE_PREFERENCES,
): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const parts = Object.fromEntries(
    partsFormatter(preferences.timeZone)
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  const day = formatDay(parts.year ?? '', parts.month ?? '', parts.day ?? '', preferences.dateFormat);
  return `${day} ${parts.hour}:${parts.minute}`;
}

const AGE_UNITS: Record<string, string> = {
  D: '{{count}} days',
  W: '{{count}} weeks',
  M: '{{count}} months',
  Y: '{{count}} years',
};

/**
 * A DICOM age (AS, `058Y`, `003M`) as people write it: '58 years', '3 months'. Anything else is
 * shown as stored, since a hand-typed age is better seen than hidden.
 */
export function formatPatientAge(value: string | null | undefined): string {
  const text = (value ?? '').trim();
  const match = /^(\d{1,3})\s*([DWMY])$/i.exec(text);
  if (!match) return text;
  const count = Number(match[1]);
  return t(AGE_UNITS[match[2]!.toUpperCase()]!, { count });
}
