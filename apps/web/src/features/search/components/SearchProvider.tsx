import { useEffect, useMemo, useReducer, type ReactNode } from 'react';
import { STORAGE_KEYS, readJson, writeJson } from '../../../lib/storage';
import { restoreSearch, searchReducer, type StoredSearch } from '../lib/search-state';
import { SearchContext } from '../search-context';

/** Holds the search the study list shows; the last one is kept in worklist:lastSearch. */
export function SearchProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(searchReducer, null, () =>
    restoreSearch(readJson<Partial<StoredSearch>>(STORAGE_KEYS.lastSearch)),
  );
  useEffect(() => {
    const stored: StoredSearch = { applied: state.applied, sort: state.sort, rows: state.rows };
    writeJson(STORAGE_KEYS.lastSearch, stored);
  }, [state.applied, state.sort, state.rows]);
  const value = useMemo(() => ({ state, dispatch }), [state]);
  return <SearchContext.Provider value={value}>{children}</SearchContext.Provider>;
}
