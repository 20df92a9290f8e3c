import { describe, expect, it } from 'vitest';
import { renderHook } from '@testing-library/react';
import { useDayPickerLocale } from './use-day-picker-locale';

describe('useDayPickerLocale in English', () => {
  it("names a day button with the number it shows as a word of its name (WCAG 2.5.3), not '1st'", () => {
    const { result } = renderHook(() => useDayPickerLocale());
    const label = result.current.labels?.labelDayButton;
    if (typeof label !== 'function') throw new Error('no day button label');
    const day = new Date(2026, 10, 1);
    expect(label(day, {})).toBe('Sunday 1 November 2026');
    expect(label(day, { today: true, selected: true })).toBe('Today, Sunday 1 November 2026, selected');
  });
});
