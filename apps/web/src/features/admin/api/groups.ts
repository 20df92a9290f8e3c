import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MAX_PAGE_ROWS } from '@imaging-inbox/contract';
import { api, type Params } from '../../../lib/api-client';

/** The account's groups for their administrators (account/group/list). */
export const useAccountGroups = (accountId: string) =>
  useQuery({
    queryKey: ['admin-groups', accountId],
    queryFn: ({ signal }) =>
      api.get('account/group/list', { uuid: accountId, 'page.rows': MAX_PAGE_ROWS }, { signal }),
    select: (answer) => answer.groups,
  });

/** The members of a group with the role each holds there (group/user/list). */
export const useGroupMembers = (groupId: string) =>
  useQuery({
    queryKey: ['admin-groups', 'members', groupId],
    queryFn: ({ signal }) =>
      api.get('group/user/list', { uuid: groupId, 'page.rows': MAX_PAGE_ROWS }, { signal }),
    select: (answer) => answer.users,
  });

const useGroupsMutation = <V, R>(call: (vars: V) => Promise<R>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: ['admin-groups'] });
      // The inbox's own group list (an admin sees every group) follows too.
      await queryClient.invalidateQueries({ queryKey: ['group', 'list'] });
    },
  });
};

export const useAddGroup = () => useGroupsMutation((params: Params) => api.call('group/add', params));

export const useRenameGroup = () =>
  useGroupsMutation((v: { uuid: string; name: string }) => api.call('group/set', v));

export const useDeleteGroup = () => useGroupsMutation((uuid: string) => api.call('group/delete', { uuid }));

/** group/user/add: adds a member with a role, or changes the role of one already in the group. */
export const useSetGroupMember = () =>
  useGroupsMutation((v: { groupId: string; userId: string; roleId: string }) =>
    api.call('group/user/add', { uuid: v.groupId, user_id: v.userId, role_id: v.roleId }),
  );

export const useDeleteGroupMember = () =>
  useGroupsMutation((v: { groupId: string; userId: string }) =>
    api.call('group/user/delete', { uuid: v.groupId, user_id: v.userId }),
  );
