import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { errorCode } from '../../../lib/api-error';
import { EMPTY_ADVANCED_FILTERS, type AdvancedFilters } from '../lib/advanced-filters';

/** User-scope setting holding the saved searches as JSON. */
export const SAVED_SEARCHES_KEY = 'saved_searches';

export interface SavedSearch {
  name: string;
  filters: AdvancedFilters;
}

export function parseSavedSearches(raw: string | null | undefined): SavedSearch[] {
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter(
        (s): s is SavedSearch =>
          typeof s === 'object' && s !== null && typeof (s as SavedSearch).name === 'string',
      )
      .map((s) => ({ name: s.name, filters: { ...EMPTY_ADVANCED_FILTERS, ...s.filters } }));
  } catch {
    return [];
  }
}

/** Saving under an existing name replaces it; the list stays sorted by name. */
export function withSavedSearch(list: SavedSearch[], entry: SavedSearch): SavedSearch[] {
  return [...list.filter((s) => s.name !== entry.name), entry].sort((a, b) => a.name.localeCompare(b.name));
}

export const savedSearchesQuery = () =>
  queryOptions({
    queryKey: ['setting', SAVED_SEARCHES_KEY],
    queryFn: async ({ signal }) => {
      try {
        const answer = await api.get('setting/get', { key: SAVED_SEARCHES_KEY }, { signal });
        return parseSavedSearches(answer.value);
      } catch (error) {
        if (errorCode(error) === 'NOT_FOUND') return [];
        throw error;
      }
    },
    staleTime: Infinity,
  });

export function useSaveSearches() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (list: SavedSearch[]) => {
      await api.call('setting/set', { key: SAVED_SEARCHES_KEY, value: JSON.stringify(list) });
      return list;
    },
    onSuccess: (list) => queryClient.setQueryData(savedSearchesQuery().queryKey, list),
  });
}
