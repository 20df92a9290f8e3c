import { queryOptions } from '@tanstack/react-query';
import type { GroupListAnswer } from '@imaging-inbox/contract';
import { apiGet } from '../../lib/api-client';

export const groupListQuery = (accountId: string | undefined) =>
  queryOptions({
    queryKey: ['group', 'list', accountId],
    queryFn: ({ signal }) => apiGet<GroupListAnswer>('group/list', { account_id: accountId }, { signal }),
    enabled: accountId !== undefined,
    staleTime: 5 * 60 * 1000,
  });
