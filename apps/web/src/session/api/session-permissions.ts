import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

/** The user's permission flags in one namespace (the account's, for the menu). */
export const sessionPermissionsQuery = (namespaceId: string | undefined) =>
  queryOptions({
    queryKey: ['session', 'permissions', namespaceId],
    queryFn: ({ signal }) => api.get('session/permissions', { namespace_id: namespaceId }, { signal }),
    enabled: namespaceId !== undefined,
    staleTime: 5 * 60 * 1000,
  });
