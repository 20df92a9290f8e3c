import { describe, expect, it } from 'vitest';
import { EMPTY_ADVANCED_FILTERS } from '../lib/advanced-filters';
import { parseSavedSearches, withSavedSearch } from './saved-searches';

describe('saved searches', () => {
  it('parses the stored JSON and fills missing fields', () => {
    const list = parseSavedSearches(JSON.stringify([{ name: 'CT', filters: { mrn: '1' } }]));
    expect(list).toEqual([{ name: 'CT', filters: { ...EMPTY_ADVANCED_FILTERS, mrn: '1' } }]);
  });
  it('tolerates junk', () => {
    expect(parseSavedSearches('{')).toEqual([]);
    expect(parseSavedSearches('{"a":1}')).toEqual([]);
    expect(parseSavedSearches(null)).toEqual([]);
  });
  it('replaces a search saved under the same name and sorts by name', () => {
    const a = { name: 'b', filters: EMPTY_ADVANCED_FILTERS };
    const b = { name: 'a', filters: EMPTY_ADVANCED_FILTERS };
    const b2 = { name: 'a', filters: { ...EMPTY_ADVANCED_FILTERS, mrn: '2' } };
    expect(withSavedSearch(withSavedSearch([a], b), b2)).toEqual([b2, a]);
  });
});
