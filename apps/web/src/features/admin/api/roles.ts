import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Permission } from '@imaging-inbox/contract';
import { MAX_PAGE_ROWS } from '@imaging-inbox/contract';
import { api } from '../../../lib/api-client';

/** The account's roles (role/list), for the role pickers of the users and groups pages. */
export const useRoles = (accountId: string, enabled = true) =>
  useQuery({
    queryKey: ['roles', accountId],
    queryFn: ({ signal }) =>
      api.get('role/list', { account_id: accountId, 'page.rows': MAX_PAGE_ROWS }, { signal }),
    select: (answer) => answer.roles,
    enabled,
  });

const useRolesMutation = <V, R>(call: (vars: V) => Promise<R>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    // Users and group members show the role names too.
    onSettled: () =>
      queryClient.invalidateQueries({ predicate: (q) => ROLE_READERS.has(String(q.queryKey[0])) }),
  });
};
const ROLE_READERS = new Set(['roles', 'account-users', 'admin-groups']);

export const useAddRole = () =>
  useRolesMutation((v: { accountId: string; name: string; permissions: Permission[] }) =>
    api.call('role/add', {
      account_id: v.accountId,
      name: v.name,
      permissions: v.permissions.join(','),
    }),
  );

export const useSetRole = () =>
  useRolesMutation((v: { uuid: string; name: string; permissions: Permission[] }) =>
    api.call('role/set', { uuid: v.uuid, name: v.name, permissions: v.permissions.join(',') }),
  );

export const useDeleteRole = () => useRolesMutation((uuid: string) => api.call('role/delete', { uuid }));
