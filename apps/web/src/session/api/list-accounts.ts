import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

/** Accounts with the inbox view enabled (412 NO_SUITABLE_ACCOUNT when none). */
export const accountListQuery = () =>
  queryOptions({
    queryKey: ['account', 'list'],
    queryFn: ({ signal }) => api.call('account/list', {}, { signal }),
    staleTime: 5 * 60 * 1000,
    retry: false,
  });
