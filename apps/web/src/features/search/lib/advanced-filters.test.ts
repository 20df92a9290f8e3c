import { describe, expect, it } from 'vitest';
import { EMPTY_ADVANCED_FILTERS, withIsoBirthDate } from './advanced-filters';

describe('withIsoBirthDate', () => {
  const withBirth = (birthDate: string) => ({ ...EMPTY_ADVANCED_FILTERS, birthDate });

  it('turns a birth date saved as MM-DD-YYYY into YYYY-MM-DD, for the field in the user’s format', () => {
    expect(withIsoBirthDate(withBirth('01-31-1980')).birthDate).toBe('1980-01-31');
  });

  it('keeps a YYYY-MM-DD day, an empty field and text that is no day as they are', () => {
    const iso = withBirth('1980-01-31');
    expect(withIsoBirthDate(iso)).toBe(iso);
    expect(withIsoBirthDate(EMPTY_ADVANCED_FILTERS)).toBe(EMPTY_ADVANCED_FILTERS);
    expect(withIsoBirthDate(withBirth('31-31-1980')).birthDate).toBe('31-31-1980');
  });
});
