import { addDays, format, isValid, isWeekend, parse, subDays, subYears } from 'date-fns';
import { DEFAULT_DATE_FORMAT, type DateFormat } from '@imaging-inbox/contract';

/** Preset ranges of SPEC.md section 9, in display order. */
export const DATE_PRESETS = [
  'All',
  'Today',
  'Today and yesterday',
  'Yesterday',
  'Last 3 days',
  'Last 3 business days',
  'Last 7 days',
  'Last 31 days',
  'Last Year',
  'Custom date range',
] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

/** The uploaded-date picker has no Yesterday preset. */
export const UPLOADED_DATE_PRESETS: readonly DatePreset[] = DATE_PRESETS.filter((p) => p !== 'Yesterday');

export const DATE_SEARCH_MODES = ['Between', 'Equal', 'Before', 'After'] as const;
export type DateSearchMode = (typeof DATE_SEARCH_MODES)[number];

/** A date-range filter value; dates are local calendar days written yyyy-MM-dd. */
export interface DateRangeValue {
  label: DatePreset;
  mode: DateSearchMode;
  startDate: string | null;
  endDate: string | null;
}

export const ALL_DATES: DateRangeValue = { label: 'All', mode: 'Between', startDate: null, endDate: null };

export const ISO_DAY = 'yyyy-MM-dd';
export const DISPLAY_DAY = 'MM-dd-yyyy';

export function toIsoDay(date: Date): string {
  return format(date, ISO_DAY);
}

export function fromIsoDay(value: string): Date {
  return parse(value, ISO_DAY, new Date());
}

/** Calendar days covered by a preset, counted back from `today` and including it. */
export function presetRange(
  preset: DatePreset,
  today: Date,
): { startDate: string | null; endDate: string | null } {
  const day = (d: Date) => toIsoDay(d);
  switch (preset) {
    case 'Today':
      return { startDate: day(today), endDate: day(today) };
    case 'Today and yesterday':
      return { startDate: day(subDays(today, 1)), endDate: day(today) };
    case 'Yesterday':
      return { startDate: day(subDays(today, 1)), endDate: day(subDays(today, 1)) };
    case 'Last 3 days':
      return { startDate: day(subDays(today, 2)), endDate: day(today) };
    case 'Last 3 business days':
      return { startDate: day(businessDaysBack(today, 3)), endDate: day(today) };
    case 'Last 7 days':
      return { startDate: day(subDays(today, 6)), endDate: day(today) };
    case 'Last 31 days':
      return { startDate: day(subDays(today, 30)), endDate: day(today) };
    case 'Last Year':
      return { startDate: day(addDays(subYears(today, 1), 1)), endDate: day(today) };
    case 'All':
    case 'Custom date range':
      return { startDate: null, endDate: null };
  }
}

/** The earliest of the `count` most recent weekdays up to and including `today`. */
function businessDaysBack(today: Date, count: number): Date {
  let cursor = today;
  let found = 0;
  for (;;) {
    if (!isWeekend(cursor)) found += 1;
    if (found === count) return cursor;
    cursor = subDays(cursor, 1);
  }
}

/**
 * The inclusive bounds a range searches, after its mode: Equal is a one-day range on the start
 * date, Before uses the end date only, After uses the start date only. Presets are recomputed from
 * `today`, so a saved "Last 7 days" search stays relative.
 */
export function rangeBounds(value: DateRangeValue, today: Date): { from: string | null; to: string | null } {
  if (value.label !== 'Custom date range') {
    const r = presetRange(value.label, today);
    return { from: r.startDate, to: r.endDate };
  }
  switch (value.mode) {
    case 'Equal':
      return { from: value.startDate, to: value.startDate };
    case 'Before':
      return { from: null, to: value.endDate };
    case 'After':
      return { from: value.startDate, to: null };
    case 'Between':
      return { from: value.startDate, to: value.endDate };
  }
}

/** Between needs both dates or neither. */
export function isRangeComplete(value: DateRangeValue): boolean {
  if (value.label !== 'Custom date range' || value.mode !== 'Between') return true;
  return (value.startDate === null) === (value.endDate === null);
}

/** The date-fns pattern of a Profile date format (MM-DD-YYYY → MM-dd-yyyy). */
export function dayPattern(dateFormat: DateFormat): string {
  return dateFormat.replace('YYYY', 'yyyy').replace('DD', 'dd');
}

/**
 * Reads a typed day in the user's date format (Profile), or as YYYYMMDD or YYYY-MM-DD; null when not
 * a valid date. The default format also takes MM/DD/YYYY.
 */
export function parseTypedDay(text: string, dateFormat: DateFormat = DEFAULT_DATE_FORMAT): string | null {
  const trimmed = text.trim();
  const patterns = [dayPattern(dateFormat), 'yyyyMMdd', ISO_DAY];
  if (dateFormat === DEFAULT_DATE_FORMAT) patterns.push('MM/dd/yyyy');
  for (const pattern of patterns) {
    if (trimmed.length !== pattern.length) continue;
    const date = parse(trimmed, pattern, new Date());
    if (isValid(date)) return toIsoDay(date);
  }
  return null;
}

/** An ISO day in the user's date format (Profile). */
export function displayDay(isoDay: string | null, dateFormat: DateFormat = DEFAULT_DATE_FORMAT): string {
  return isoDay ? format(fromIsoDay(isoDay), dayPattern(dateFormat)) : '';
}

/** yyyy-MM-dd → YYYYMMDD, the DICOM form study/list expects for study and birth dates. */
export function toDicomDay(isoDay: string): string {
  return isoDay.replaceAll('-', '');
}

/** Short text for a chosen range: the preset name, or its dates for a custom range. */
export function describeRange(value: DateRangeValue, dateFormat: DateFormat = DEFAULT_DATE_FORMAT): string {
  if (value.label !== 'Custom date range') return value.label;
  const start = displayDay(value.startDate, dateFormat);
  const end = displayDay(value.endDate, dateFormat);
  switch (value.mode) {
    case 'Equal':
      return start;
    case 'Before':
      return `Before ${end}`;
    case 'After':
      return `After ${start}`;
    case 'Between':
      return start || end ? `${start} – ${end}` : value.label;
  }
}
