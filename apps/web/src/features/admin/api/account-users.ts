import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UserPageSize, UserSortField } from '@imaging-inbox/contract';
import { api, type Params } from '../../../lib/api-client';

export interface UserListQuery {
  filter: string;
  sort: { field: UserSortField; direction: 'asc' | 'desc' };
  rows: UserPageSize;
  /** From 1. */
  page: number;
}

const usersKey = ['account-users'] as const;

/** A page of the account's users (account/user/list). */
export const useAccountUsers = (accountId: string, q: UserListQuery, enabled = true) =>
  useQuery({
    enabled,
    queryKey: [...usersKey, accountId, q],
    queryFn: ({ signal }) =>
      api.get(
        'account/user/list',
        {
          uuid: accountId,
          filter: q.filter || undefined,
          sort_by: `${q.sort.field}-${q.sort.direction}`,
          'page.rows': q.rows,
          'page.number': q.page,
        },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });

const useUsersMutation = <V, R>(call: (vars: V) => Promise<R>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersKey }),
  });
};

/** account/user/add: e-mails a one-time link to choose a password (a known user is told by mail). */
export const useInviteUser = () => useUsersMutation((params: Params) => api.call('account/user/add', params));

/** account/user/set: name, admin flag and account role. */
export const useSetAccountUser = () =>
  useUsersMutation((params: Params) => api.call('account/user/set', params));

export const useDeleteAccountUser = () =>
  useUsersMutation((v: { accountId: string; userId: string }) =>
    api.call('account/user/delete', { uuid: v.accountId, user_id: v.userId }),
  );

/**
 * user/enable for each selected user, one after another; resolves when all went through and
 * rejects with the first refusal (the ones before it stay done, the list shows where each stands).
 */
export const useEnableUsers = () =>
  useUsersMutation(async (v: { userIds: string[]; enable: boolean }) => {
    for (const uuid of v.userIds) {
      await api.call('user/enable', { uuid, ...(v.enable ? {} : { disable: 1 }) });
    }
  });

/** account/user/totp/reset: a member's two-factor codes removed after a lost phone (`removed` 0: they had none). */
export const useResetTwoFactor = () =>
  useUsersMutation((v: { accountId: string; userId: string }) =>
    api.call('account/user/totp/reset', { uuid: v.accountId, user_id: v.userId }),
  );
