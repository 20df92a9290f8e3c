import { isTimeZone, wallTimeToEpoch } from '@imaging-inbox/contract';

/** Epoch milliseconds of a calendar date (and optional time) read in an IANA time zone. */
export function zonedToEpoch(
  parts: {
    year: number;
    month: number;
    day: number;
    hour?: number;
    minute?: number;
    second?: number;
    ms?: number;
  },
  timeZone: string,
): number {
  const wall = Date.UTC(
    parts.year,
    parts.month - 1,
    parts.day,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
    parts.ms ?? 0,
  );
  return wallTimeToEpoch(wall, timeZone);
}

/** Every search asks: a lookup of the contract's kept zone formatters, without formatting a date. */
export function isValidTimeZone(timeZone: string): boolean {
  return isTimeZone(timeZone);
}

const DATE_RE = /^(\d{4})-?(\d{2})-?(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?$/;

/**
 * Reads `YYYY-MM-DD`, `YYYYMMDD` or `YYYY-MM-DD HH:mm[:ss]` in the zone. A bare date used as an
 * upper bound covers the whole day.
 */
export function parseZonedBound(value: string, timeZone: string, bound: 'ge' | 'le'): number | undefined {
  const m = DATE_RE.exec(value.trim());
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  if (m[4] === undefined) {
    const start = zonedToEpoch({ year, month, day }, timeZone);
    return bound === 'ge' ? start : zonedToEpoch({ year, month, day: day + 1 }, timeZone) - 1;
  }
  return zonedToEpoch(
    {
      year,
      month,
      day,
      hour: Number(m[4]),
      minute: Number(m[5]),
      second: Number(m[6] ?? 0),
      ms: Number((m[7] ?? '0').padEnd(3, '0')),
    },
    timeZone,
  );
}

/** DICOM DA from `YYYYMMDD` or `YYYY-MM-DD`; undefined when it is neither. */
export function toDicomDate(value: string): string | undefined {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(value.trim());
  return m ? `${m[1]}${m[2]}${m[3]}` : undefined;
}
