import { wallTimeToEpoch } from '@imaging-inbox/contract';

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Whether a typed time reads as HH:MM (24 h). */
export const isTime = (text: string) => TIME.test(text.trim());

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
  return wallTimeToEpoch(Date.UTC(y, m - 1, d, h, min), timeZone);
}
