import { describe, expect, it } from 'vitest';
import { isTime, zonedInstant } from './zoned-time';

describe('zonedInstant', () => {
  it("reads a day and time on the clocks of the user's time zone", () => {
    expect(zonedInstant('2026-03-04', '10:05', 'UTC')).toBe(Date.parse('2026-03-04T10:05:00Z'));
    expect(zonedInstant('2026-01-15', '08:00', 'Europe/Paris')).toBe(Date.parse('2026-01-15T07:00:00Z'));
    expect(zonedInstant('2026-07-15', '08:00', 'Europe/Paris')).toBe(Date.parse('2026-07-15T06:00:00Z'));
    expect(zonedInstant('2026-07-15', '23:30', 'America/New_York')).toBe(Date.parse('2026-07-16T03:30:00Z'));
  });

  it('reads the hours around a clock change', () => {
    // Paris moves from 02:00 to 03:00 on 29 March 2026 and back from 03:00 to 02:00 on 25 October.
    expect(zonedInstant('2026-03-29', '03:30', 'Europe/Paris')).toBe(Date.parse('2026-03-29T01:30:00Z'));
    expect(zonedInstant('2026-03-29', '01:30', 'Europe/Paris')).toBe(Date.parse('2026-03-29T00:30:00Z'));
    expect(zonedInstant('2026-10-25', '04:00', 'Europe/Paris')).toBe(Date.parse('2026-10-25T03:00:00Z'));
  });

  it("uses the browser's zone when the Profile has none", () => {
    expect(zonedInstant('2026-03-04', '10:05', null)).toBe(new Date(2026, 2, 4, 10, 5).getTime());
  });

  it('refuses a day or time that does not read as one', () => {
    expect(zonedInstant('04-03-2026', '10:05', 'UTC')).toBeNull();
    expect(zonedInstant('2026-03-04', '25:00', 'UTC')).toBeNull();
    expect(zonedInstant('2026-03-04', '10h05', 'UTC')).toBeNull();
    expect(isTime('09:30')).toBe(true);
    expect(isTime('9:30')).toBe(false);
  });
});
