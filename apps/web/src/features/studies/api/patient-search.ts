import { useMutation, useQuery } from '@tanstack/react-query';
import { SEARCH_POLL_MS, type DestinationSearch } from '@imaging-inbox/contract';
import { apiGet, apiPost } from '../../../lib/api-client';

/**
 * Search Patient (C-Find flow): a C-FIND of the destination for the patient's exams, started with
 * destination/search (answering its uuid at once), then polled every 1500 ms until it ends.
 */
export const useStartPatientSearch = () =>
  useMutation({
    mutationFn: (vars: { destinationId: string; groupUuid: string; patientid: string }) =>
      apiPost<{ uuid: string }>('destination/search', {
        uuid: vars.destinationId,
        copy_to: vars.groupUuid,
        patientid: vars.patientid,
      }),
  });

export const usePatientSearch = (uuid: string | null) =>
  useQuery({
    queryKey: ['destination-search', uuid],
    queryFn: ({ signal }) => apiGet<DestinationSearch>('destination/search/get', { uuid: uuid! }, { signal }),
    enabled: uuid !== null,
    refetchInterval: (query) =>
      !query.state.data || query.state.data.state === 'running' ? SEARCH_POLL_MS : false,
  });
