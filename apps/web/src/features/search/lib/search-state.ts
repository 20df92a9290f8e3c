import { DEFAULT_STUDY_SORT, STUDY_PAGE_ROWS } from '@imaging-inbox/contract';
import { EMPTY_ADVANCED_FILTERS, type AdvancedFilters } from './advanced-filters';
import type { AppliedSearch } from './search-filters';

export interface SearchState {
  /** The search the study list shows. */
  applied: AppliedSearch;
  /** The patient-name box as typed, applied by Search. */
  patientNameDraft: string;
  sort: string;
  /** 1-based. */
  page: number;
  rows: number;
  advancedOpen: boolean;
}

export type SearchAction =
  | { type: 'typePatientName'; value: string }
  | { type: 'search' }
  | { type: 'applyAdvanced'; filters: AdvancedFilters }
  | { type: 'clear' }
  | { type: 'setSort'; sort: string }
  | { type: 'setPage'; page: number }
  | { type: 'setRows'; rows: number }
  | { type: 'toggleAdvanced' }
  | { type: 'closeAdvanced' };

export const INITIAL_SEARCH_STATE: SearchState = {
  applied: { patientName: '', advanced: EMPTY_ADVANCED_FILTERS },
  patientNameDraft: '',
  sort: DEFAULT_STUDY_SORT,
  page: 1,
  rows: STUDY_PAGE_ROWS,
  advancedOpen: false,
};

/** Every change of what is searched goes back to page 1. */
export function searchReducer(state: SearchState, action: SearchAction): SearchState {
  switch (action.type) {
    case 'typePatientName':
      return { ...state, patientNameDraft: action.value };
    case 'search':
      return {
        ...state,
        applied: { ...state.applied, patientName: state.patientNameDraft.trim() },
        page: 1,
      };
    case 'applyAdvanced':
      return {
        ...state,
        applied: { patientName: action.filters.patientName.trim(), advanced: action.filters },
        patientNameDraft: action.filters.patientName.trim(),
        page: 1,
        advancedOpen: false,
      };
    case 'clear':
      return { ...state, applied: INITIAL_SEARCH_STATE.applied, patientNameDraft: '', page: 1 };
    case 'setSort':
      return state.sort === action.sort ? state : { ...state, sort: action.sort, page: 1 };
    case 'setPage':
      return { ...state, page: Math.max(1, action.page) };
    case 'setRows':
      return { ...state, rows: action.rows, page: 1 };
    case 'toggleAdvanced':
      return { ...state, advancedOpen: !state.advancedOpen };
    case 'closeAdvanced':
      return { ...state, advancedOpen: false };
  }
}

/** What survives a reload (sessionStorage worklist:lastSearch). */
export interface StoredSearch {
  applied: AppliedSearch;
  sort: string;
  rows: number;
}

export function restoreSearch(stored: Partial<StoredSearch> | null): SearchState {
  if (!stored?.applied) return INITIAL_SEARCH_STATE;
  return {
    ...INITIAL_SEARCH_STATE,
    applied: {
      patientName: stored.applied.patientName ?? '',
      advanced: { ...EMPTY_ADVANCED_FILTERS, ...stored.applied.advanced },
    },
    patientNameDraft: stored.applied.patientName ?? '',
    sort: stored.sort ?? INITIAL_SEARCH_STATE.sort,
    rows: stored.rows ?? INITIAL_SEARCH_STATE.rows,
  };
}
