import { describe, expect, it } from 'vitest';
import { isValidTimeZone, parseZonedBound, toDicomDate, zonedToEpoch } from './time.js';

describe('zoned dates', () => {
  it('reads a calendar date in a zone with and without daylight saving', () => {
    expect(zonedToEpoch({ year: 2026, month: 1, day: 15 }, 'UTC')).toBe(Date.parse('2026-01-15T00:00:00Z'));
    expect(zonedToEpoch({ year: 2026, month: 1, day: 15 }, 'America/New_York')).toBe(
      Date.parse('2026-01-15T05:00:00Z'),
    );
    expect(zonedToEpoch({ year: 2026, month: 7, day: 15 }, 'America/New_York')).toBe(
      Date.parse('2026-07-15T04:00:00Z'),
    );
    expect(zonedToEpoch({ year: 2026, month: 3, day: 8, hour: 12 }, 'Asia/Kolkata')).toBe(
      Date.parse('2026-03-08T06:30:00Z'),
    );
  });

  it('makes an upper bound cover the whole day', () => {
    expect(parseZonedBound('2026-03-01', 'UTC', 'le')).toBe(Date.parse('2026-03-02T00:00:00Z') - 1);
    expect(parseZonedBound('20260301', 'Europe/Paris', 'ge')).toBe(Date.parse('2026-02-28T23:00:00Z'));
    expect(parseZonedBound('2026-03-01 10:30', 'UTC', 'ge')).toBe(Date.parse('2026-03-01T10:30:00Z'));
  });

  it('refuses what is not a date', () => {
    expect(parseZonedBound('yesterday', 'UTC', 'ge')).toBeUndefined();
    expect(parseZonedBound('2026-13-01', 'UTC', 'ge')).toBeUndefined();
    expect(toDicomDate('2026-02-03')).toBe('20260203');
    expect(toDicomDate('2026/02/03')).toBeUndefined();
    expect(isValidTimeZone('Europe/Oslo')).toBe(true);
    expect(isValidTimeZone('Nowhere/Else')).toBe(false);
  });
});
