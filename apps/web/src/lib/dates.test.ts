import { describe, expect, it } from 'vitest';
import {
  DATE_PRESETS,
  UPLOADED_DATE_PRESETS,
  describeRange,
  isRangeComplete,
  parseTypedDay,
  presetRange,
  rangeBounds,
  type DateRangeValue,
} from './dates';

// Wednesday 2024-05-15, and Monday 2024-05-13 for the business-day preset.
const wednesday = new Date(2024, 4, 15, 10, 30);
const monday = new Date(2024, 4, 13, 9, 0);

describe('date presets', () => {
  it('lists the spec presets in order, without Yesterday for the uploaded date', () => {
    expect(DATE_PRESETS).toEqual([
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
    ]);
    expect(UPLOADED_DATE_PRESETS).not.toContain('Yesterday');
    expect(UPLOADED_DATE_PRESETS).toHaveLength(9);
  });

  it.each([
    ['All', null, null],
    ['Today', '2024-05-15', '2024-05-15'],
    ['Today and yesterday', '2024-05-14', '2024-05-15'],
    ['Yesterday', '2024-05-14', '2024-05-14'],
    ['Last 3 days', '2024-05-13', '2024-05-15'],
    ['Last 3 business days', '2024-05-13', '2024-05-15'],
    ['Last 7 days', '2024-05-09', '2024-05-15'],
    ['Last 31 days', '2024-04-15', '2024-05-15'],
    ['Last Year', '2023-05-16', '2024-05-15'],
    ['Custom date range', null, null],
  ] as const)('%s covers %s to %s', (preset, start, end) => {
    expect(presetRange(preset, wednesday)).toEqual({ startDate: start, endDate: end });
  });

  it('skips the weekend for Last 3 business days', () => {
    expect(presetRange('Last 3 business days', monday)).toEqual({
      startDate: '2024-05-09',
      endDate: '2024-05-13',
    });
  });
});

describe('search modes', () => {
  const custom = (mode: DateRangeValue['mode']): DateRangeValue => ({
    label: 'Custom date range',
    mode,
    startDate: '2024-01-10',
    endDate: '2024-01-20',
  });

  it('Between uses both dates', () => {
    expect(rangeBounds(custom('Between'), wednesday)).toEqual({ from: '2024-01-10', to: '2024-01-20' });
  });
  it('Equal is a one-day range', () => {
    expect(rangeBounds(custom('Equal'), wednesday)).toEqual({ from: '2024-01-10', to: '2024-01-10' });
  });
  it('Before uses the end date only', () => {
    expect(rangeBounds(custom('Before'), wednesday)).toEqual({ from: null, to: '2024-01-20' });
  });
  it('After uses the start date only', () => {
    expect(rangeBounds(custom('After'), wednesday)).toEqual({ from: '2024-01-10', to: null });
  });
  it('recomputes presets from today', () => {
    const value: DateRangeValue = { label: 'Today', mode: 'Between', startDate: '2000-01-01', endDate: null };
    expect(rangeBounds(value, wednesday)).toEqual({ from: '2024-05-15', to: '2024-05-15' });
  });
  it('Between needs both dates or neither', () => {
    expect(isRangeComplete({ ...custom('Between'), endDate: null })).toBe(false);
    expect(isRangeComplete({ ...custom('Between'), startDate: null, endDate: null })).toBe(true);
    expect(isRangeComplete({ ...custom('After'), endDate: null })).toBe(true);
  });
  it('describes a range for its field', () => {
    expect(describeRange(custom('Between'))).toBe('01-10-2024 – 01-20-2024');
    expect(describeRange(custom('Before'))).toBe('Before 01-20-2024');
    expect(describeRange(custom('Between'), 'YYYY/MM/DD')).toBe('2024/01/10 – 2024/01/20');
    expect(describeRange({ ...custom('Between'), label: 'Last 7 days' })).toBe('Last 7 days');
  });
});

describe('typed days', () => {
  it('reads MM-DD-YYYY and YYYYMMDD', () => {
    expect(parseTypedDay('01-31-2024')).toBe('2024-01-31');
    expect(parseTypedDay('20240131')).toBe('2024-01-31');
    expect(parseTypedDay('2024-01-31')).toBe('2024-01-31');
  });
  it('rejects impossible dates and junk', () => {
    expect(parseTypedDay('02-30-2024')).toBeNull();
    expect(parseTypedDay('hello')).toBeNull();
    expect(parseTypedDay('')).toBeNull();
  });
});
