import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Params } from '../../../lib/api-client';

const destinationsKey = (accountId: string) => ['destinations', accountId] as const;

/** The account's destinations (destination/list). */
export const useDestinations = (accountId: string) =>
  useQuery({
    queryKey: destinationsKey(accountId),
    queryFn: ({ signal }) => api.get('destination/list', { account_id: accountId }, { signal }),
    select: (answer) => answer.destinations,
  });

const useDestinationMutation = <V>(call: (vars: V) => Promise<unknown>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['destinations'] }),
  });
};

export const useAddDestination = () =>
  useDestinationMutation((params: Params) => api.call('destination/add', params));

export const useSetDestination = () =>
  useDestinationMutation((params: Params) => api.call('destination/set', params));

export const useDeleteDestination = () =>
  useDestinationMutation((uuid: string) => api.call('destination/delete', { uuid }));

/** A C-ECHO now; its outcome also becomes the listed last echo. */
export const useEchoDestination = () =>
  useDestinationMutation((uuid: string) => api.call('destination/echo', { uuid }));
