import { describe, expect, it } from 'vitest';
import { EMPTY_ADVANCED_FILTERS } from './advanced-filters';
import { INITIAL_SEARCH_STATE, restoreSearch, searchReducer, type SearchState } from './search-state';

const on = (state: SearchState, ...actions: Parameters<typeof searchReducer>[1][]) =>
  actions.reduce(searchReducer, state);

describe('searchReducer', () => {
  it('defaults to Newest upload, 50 rows, page 1', () => {
    expect(INITIAL_SEARCH_STATE).toMatchObject({ sort: 'created-desc', rows: 50, page: 1 });
  });
  it('applies the typed patient name on Search and resets the page', () => {
    const s = on(
      INITIAL_SEARCH_STATE,
      { type: 'setPage', page: 3 },
      { type: 'typePatientName', value: ' DOE ' },
    );
    expect(s.applied.patientName).toBe('');
    const searched = searchReducer(s, { type: 'search' });
    expect(searched.applied.patientName).toBe('DOE');
    expect(searched.page).toBe(1);
  });
  it('advanced search sets the filters, copies the patient name, closes the panel', () => {
    const filters = { ...EMPTY_ADVANCED_FILTERS, patientName: 'SMITH', mrn: '42' };
    const s = on(
      INITIAL_SEARCH_STATE,
      { type: 'toggleAdvanced' },
      { type: 'setPage', page: 2 },
      {
        type: 'applyAdvanced',
        filters,
      },
    );
    expect(s).toMatchObject({ advancedOpen: false, page: 1, patientNameDraft: 'SMITH' });
    expect(s.applied).toEqual({ patientName: 'SMITH', advanced: filters });
  });
  it('clear empties the search but keeps sort and rows', () => {
    const s = on(
      INITIAL_SEARCH_STATE,
      { type: 'setSort', sort: 'patient_name-asc' },
      { type: 'setRows', rows: 25 },
      { type: 'applyAdvanced', filters: { ...EMPTY_ADVANCED_FILTERS, mrn: '1' } },
      { type: 'clear' },
    );
    expect(s.applied).toEqual(INITIAL_SEARCH_STATE.applied);
    expect(s).toMatchObject({ sort: 'patient_name-asc', rows: 25, patientNameDraft: '' });
  });
  it('restores a stored search and tolerates junk', () => {
    expect(restoreSearch(null)).toEqual(INITIAL_SEARCH_STATE);
    const restored = restoreSearch({
      applied: { patientName: 'DOE', advanced: { ...EMPTY_ADVANCED_FILTERS } },
      rows: 10,
    });
    expect(restored).toMatchObject({ patientNameDraft: 'DOE', rows: 10, sort: 'created-desc' });
  });
});
