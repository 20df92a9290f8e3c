import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LabelOverride } from '@imaging-inbox/contract';
import { api } from '../../../lib/api-client';

/** The account's label overrides (label/list): every member reads them. */
export const useLabels = (accountId: string) =>
  useQuery({
    queryKey: ['labels', accountId],
    queryFn: ({ signal }) => api.get('label/list', { account_id: accountId }, { signal }),
    select: (answer) => answer.labels,
  });

const useLabelsMutation = <V, R>(call: (vars: V) => Promise<R>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['labels'] }),
  });
};

export const useSetLabel = (accountId: string) =>
  useLabelsMutation((label: LabelOverride) => api.call('label/set', { account_id: accountId, ...label }));

export const useDeleteLabel = (accountId: string) =>
  useLabelsMutation((label: Pick<LabelOverride, 'language' | 'key'>) =>
    api.call('label/delete', { account_id: accountId, language: label.language, key: label.key }),
  );
