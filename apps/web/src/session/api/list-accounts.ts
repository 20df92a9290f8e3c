import { queryOptions } from '@tanstack/react-query';
import type { AccountListAnswer } from '@imaging-inbox/contract';
import { apiPost } from '../../lib/api-client';

/** Accounts with the inbox view enabled (412 NO_SUITABLE_ACCOUNT when none). */
export const accountListQuery = () =>
  queryOptions({
    queryKey: ['account', 'list'],
    queryFn: ({ signal }) => apiPost<AccountListAnswer>('account/list', {}, { signal }),
    staleTime: 5 * 60 * 1000,
    retry: false,
  });
