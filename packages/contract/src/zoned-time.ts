/**
 * Wall-clock times in an IANA time zone, without a time-zone library: the zone's offset at an
 * instant is read back from Intl, and a wall time is turned into its instant by correcting once
 * more around a clock change. The server reads search bounds with it, the web app the times
 * typed in the user's Profile zone.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Making a formatter costs about a millisecond; a process meets few zones, so each is kept. */
function partsIn(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    if (formatters.size < 1000) formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Is this an IANA time zone Intl knows? A known zone's formatter is kept, so asking again is a lookup. */
export function isTimeZone(timeZone: string): boolean {
  try {
    partsIn(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** How far `timeZone`'s clock is ahead of UTC at an instant, in ms (throws for an unknown zone). */
export function zoneOffsetMs(epochMs: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of partsIn(timeZone).formatToParts(new Date(epochMs))) {
    parts[part.type] = Number(part.value);
  }
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day, parts.hour, parts.minute, parts.second);
  return asUtc - Math.floor(epochMs / 1000) * 1000;
}

/**
 * The instant a wall-clock time names in `timeZone`, the wall time given as if it were UTC
 * (`Date.UTC(y, m - 1, d, h, min, s, ms)`). A time skipped by a clock change reads as the instant
 * after the gap, as browsers' own date inputs do; a repeated one as its first occurrence.
 */
export function wallTimeToEpoch(wallAsUtcMs: number, timeZone: string): number {
  const first = wallAsUtcMs - zoneOffsetMs(wallAsUtcMs, timeZone);
  return wallAsUtcMs - zoneOffsetMs(first, timeZone);
}
