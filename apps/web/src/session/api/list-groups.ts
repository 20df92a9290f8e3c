import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

export const groupListQuery = (accountId: string | undefined) =>
  queryOptions({
    queryKey: ['group', 'list', accountId],
    queryFn: ({ signal }) => api.get('group/list', { account_id: accountId }, { signal }),
    enabled: accountId !== undefined,
    staleTime: 5 * 60 * 1000,
  });
