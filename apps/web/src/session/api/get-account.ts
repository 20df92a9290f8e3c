import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

export const accountQuery = (uuid: string | undefined) =>
  queryOptions({
    queryKey: ['account', 'get', uuid],
    queryFn: ({ signal }) => api.get('account/get', { uuid }, { signal }),
    enabled: uuid !== undefined,
    staleTime: 5 * 60 * 1000,
  });
