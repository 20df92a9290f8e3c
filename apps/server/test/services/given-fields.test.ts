import { describe, expect, it } from 'vitest';
import { givenFields, ifGiven } from '../../src/domain/given-fields.js';

describe('givenFields', () => {
  it('keeps the fields an edit names, null included, and drops the absent ones', () => {
    expect(givenFields({ name: 'CT rule', sequence: undefined, for_id: null, disabled: 0 })).toEqual({
      name: 'CT rule',
      for_id: null,
      disabled: 0,
    });
  });

  it('answers nothing to change for an edit that names no field', () => {
    expect(Object.keys(givenFields({ name: undefined, url: undefined }))).toEqual([]);
  });
});

describe('ifGiven', () => {
  it('converts a given value, null included, and leaves an absent one absent', () => {
    expect(ifGiven(['a'], JSON.stringify)).toBe('["a"]');
    expect(ifGiven(null, (value) => value ?? 'cleared')).toBe('cleared');
    expect(ifGiven(undefined, JSON.stringify)).toBeUndefined();
  });
});
