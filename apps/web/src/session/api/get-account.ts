import { queryOptions } from '@tanstack/react-query';
import type { AccountAnswer } from '@imaging-inbox/contract';
import { apiGet } from '../../lib/api-client';

export const accountQuery = (uuid: string | undefined) =>
  queryOptions({
    queryKey: ['account', 'get', uuid],
    queryFn: ({ signal }) => apiGet<AccountAnswer>('account/get', { uuid }, { signal }),
    enabled: uuid !== undefined,
    staleTime: 5 * 60 * 1000,
  });
