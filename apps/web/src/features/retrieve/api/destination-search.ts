import { useMutation, useQuery } from '@tanstack/react-query';
import { SEARCH_POLL_MS, studySearchOf, type DestinationSearch } from '@imaging-inbox/contract';
import { api, type Params } from '../../../lib/api-client';

/** Starts a destination search (destination/search); answers its uuid at once. */
export const useStartSearch = () =>
  useMutation({ mutationFn: (params: Params) => api.call('destination/search', params) });

const isRunning = (search: DestinationSearch | undefined) =>
  !search || search.state === 'running' || search.retrieves.some((r) => r.state === 'running');

/**
 * The search's state, results and retrieves (destination/search/get), polled every SEARCH_POLL_MS
 * while the search or one of its retrieves still runs.
 */
export const useSearch = (uuid: string | null) =>
  useQuery({
    queryKey: ['destination-search', uuid],
    queryFn: async ({ signal }) =>
      studySearchOf(await api.get('destination/search/get', { uuid: uuid! }, { signal })),
    enabled: uuid !== null,
    refetchInterval: (query) => (isRunning(query.state.data) ? SEARCH_POLL_MS : false),
  });

/** Retrieves one found study into the search's group (destination/retrieve). */
export const useRetrieve = () =>
  useMutation({
    mutationFn: (vars: { searchId: string; studyUid: string }) =>
      api.call('destination/retrieve', {
        destination_search_id: vars.searchId,
        study_uid: vars.studyUid,
      }),
  });
