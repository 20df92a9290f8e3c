import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LinkSort } from '@imaging-inbox/contract';
import { api, type Params } from '../../../lib/api-client';

const linksKey = (namespaceId: string, sort: LinkSort) => ['links', namespaceId, sort] as const;

export const addLink = (params: Params) => api.call('link/add', params);

export const useAddLink = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addLink,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['links'] }),
  });
};

/** Pending requests of one group (SPEC.md section 7, link/list). */
export const usePendingRequests = (accountId: string, namespaceId: string, sort: LinkSort) =>
  useQuery({
    queryKey: linksKey(namespaceId, sort),
    queryFn: ({ signal }) =>
      api.get(
        'link/list',
        { account_id: accountId, 'filter.namespace_id.equals': namespaceId, sort_by: sort },
        { signal },
      ),
    select: (answer) => answer.links,
  });

export const useRevokeLink = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (uuid: string) => api.call('link/delete', { uuid }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['links'] }),
  });
};
