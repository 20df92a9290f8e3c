import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SessionUser } from '@imaging-inbox/contract';
import { apiGet } from '../../../lib/api-client';

export const getSessionUser = (signal?: AbortSignal) => apiGet<SessionUser>('session/user', {}, { signal });

export const sessionUserQuery = (sid: string | null) =>
  queryOptions({
    queryKey: ['session', 'user', sid],
    queryFn: ({ signal }) => getSessionUser(signal),
    enabled: sid !== null,
    staleTime: Infinity,
    retry: false,
  });

export const useSessionUser = (sid: string | null) => useQuery(sessionUserQuery(sid));
