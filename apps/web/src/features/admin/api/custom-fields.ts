import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MAX_PAGE_ROWS } from '@imaging-inbox/contract';
import { api, type Params } from '../../../lib/api-client';

/** The account's custom field definitions (customfield/list). */
export const useCustomFields = (accountId: string) =>
  useQuery({
    queryKey: ['customfields', accountId],
    queryFn: ({ signal }) =>
      api.get('customfield/list', { account_id: accountId, 'page.rows': MAX_PAGE_ROWS }, { signal }),
    select: (answer) => answer.customfields,
  });

const useFieldsMutation = <V, R>(call: (vars: V) => Promise<R>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['customfields'] }),
  });
};

export const useAddCustomField = () =>
  useFieldsMutation((params: Params) => api.call('customfield/add', params));
export const useSetCustomField = () =>
  useFieldsMutation((params: Params) => api.call('customfield/set', params));
export const useDeleteCustomField = () =>
  useFieldsMutation((uuid: string) => api.call('customfield/delete', { uuid }));
