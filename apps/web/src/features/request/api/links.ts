import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LinkAddAnswer, LinkListAnswer, LinkSort } from '@imaging-inbox/contract';
import { apiGet, apiPost, type Params } from '../../../lib/api-client';

const linksKey = (namespaceId: string, sort: LinkSort) => ['links', namespaceId, sort] as const;

export const addLink = (params: Params) => apiPost<LinkAddAnswer>('link/add', params);

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
      apiGet<LinkListAnswer>(
        'link/list',
        { account_id: accountId, 'filter.namespace_id.equals': namespaceId, sort_by: sort },
        { signal },
      ),
    select: (answer) => answer.links,
  });

export const useRevokeLink = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (uuid: string) => apiPost('link/delete', { uuid }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['links'] }),
  });
};
