import { createContext, useContext, type Dispatch } from 'react';
import type { SearchAction, SearchState } from './lib/search-state';

export const SearchContext = createContext<{ state: SearchState; dispatch: Dispatch<SearchAction> } | null>(
  null,
);

export function useSearch() {
  const value = useContext(SearchContext);
  if (!value) throw new Error('useSearch outside SearchProvider');
  return value;
}
