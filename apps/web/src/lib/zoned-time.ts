const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Whether a typed time reads as HH:MM (24 h). */
export const isTime = (text: string) => TIME.test(text.trim());

const formatters = new Map<string, Intl.DateTimeFormat>();
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
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** How far `timeZone`'s clock is ahead of UTC at an instant, in ms. */
function offsetAt(ms: number, timeZone: string): number {
  const p = Object.fromEntries(
    partsIn(timeZone)
      .formatToParts(new Date(ms))
      .map((x) => [x.type, Number(x.value)]),
  );
  const asUtc = Date.UTC(p.year!, p.month! - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant a day (YYYY-MM-DD) and time (HH:MM) name on the clocks of `timeZone` (null: the
 * browser's), or null when either does not read as one. A time skipped by a clock change reads as
 * the instant after the gap, as the browser's own date inputs do.
 */
export function zonedInstant(isoDay: string, time: string, timeZone: string | null): number | null {
  const day = ISO_DAY.exec(isoDay);
  const clock = TIME.exec(time.trim());
  if (!day || !clock) return null;
  const [y, m, d, h, min] = [day[1], day[2], day[3], clock[1], clock[2]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (!timeZone) return new Date(y, m - 1, d, h, min).getTime();
  const wall = Date.UTC(y, m - 1, d, h, min);
  const first = wall - offsetAt(wall, timeZone);
  const second = offsetAt(first, timeZone);
  return second === offsetAt(wall, timeZone) ? first : wall - second;
}
