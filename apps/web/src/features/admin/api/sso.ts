import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiParams } from '@imaging-inbox/contract';
import { api } from '../../../lib/api-client';

/** The account's identity provider (account/sso/get): null when none is set yet. */
export const useAccountSso = (accountId: string) =>
  useQuery({
    queryKey: ['account-sso', accountId],
    queryFn: ({ signal }) => api.get('account/sso/get', { account_id: accountId }, { signal }),
  });

/** Saves the account's provider whole (account/sso/set); the server checks every field again. */
export const useSetAccountSso = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (params: ApiParams<'account/sso/set'>) => api.call('account/sso/set', params),
    onSuccess: (answer) => queryClient.setQueryData(['account-sso', answer.sso?.account_id], answer),
  });
};
