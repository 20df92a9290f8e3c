import { queryOptions, useQuery } from '@tanstack/react-query';
import { getSessionUser, signedInUser } from './signed-in-user';

export const sessionUserQuery = (sid: string | null) =>
  queryOptions({
    queryKey: ['session', 'user', sid],
    queryFn: ({ signal }) => getSessionUser(signal),
    // Right after sign-in the user is known already: the inbox opens without asking again.
    initialData: () => signedInUser(sid),
    enabled: sid !== null,
    staleTime: Infinity,
    retry: false,
  });

export const useSessionUser = (sid: string | null) => useQuery(sessionUserQuery(sid));
