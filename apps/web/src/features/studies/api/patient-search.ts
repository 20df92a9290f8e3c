import { useMutation, useQuery } from '@tanstack/react-query';
import { SEARCH_POLL_MS, studySearchOf } from '@imaging-inbox/contract';
import { api } from '../../../lib/api-client';

/**
 * Search Patient (C-Find flow): study/patient/search starts a C-FIND of the gatekeeper group's query
 * destination for the nomination's patient and answers the search's uuid at once.
 */
export const useStartPatientSearch = (copyUuid: string) =>
  useMutation({
    mutationFn: (vars: { patientid: string }) =>
      api.call('study/patient/search', { uuid: copyUuid, patientid: vars.patientid }),
  });

/** The search's results (destination/search/get), polled every 1500 ms until it ends. */
export const usePatientSearch = (uuid: string | null) =>
  useQuery({
    queryKey: ['destination-search', uuid],
    queryFn: async ({ signal }) =>
      studySearchOf(await api.get('destination/search/get', { uuid: uuid! }, { signal })),
    enabled: uuid !== null,
    refetchInterval: (query) =>
      !query.state.data || query.state.data.state === 'running' ? SEARCH_POLL_MS : false,
  });
