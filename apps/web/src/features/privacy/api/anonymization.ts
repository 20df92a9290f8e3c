import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Params } from '../../../lib/api-client';

/** The account's de-identification profiles (anonymization/list). */
export const useAnonymizationProfiles = (accountId: string) =>
  useQuery({
    queryKey: ['anonymization', accountId],
    queryFn: ({ signal }) => api.get('anonymization/list', { account_id: accountId }, { signal }),
    select: (answer) => answer.profiles,
  });

const useProfileMutation = <V>(call: (vars: V) => Promise<unknown>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['anonymization'] }),
  });
};

export const useAddProfile = () =>
  useProfileMutation((params: Params) => api.call('anonymization/add', params));
export const useSetProfile = () =>
  useProfileMutation((params: Params) => api.call('anonymization/set', params));
export const useDeleteProfile = () =>
  useProfileMutation((uuid: string) => api.call('anonymization/delete', { uuid }));
