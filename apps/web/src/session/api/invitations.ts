import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

const invitationsKey = ['account', 'invitations'] as const;

/** Invitations from other accounts waiting for the signed-in user's answer (decision 0052). */
export const useInvitations = () =>
  useQuery({
    queryKey: invitationsKey,
    queryFn: ({ signal }) => api.call('account/invitation/list', {}, { signal }),
    staleTime: 60 * 1000,
  });

/**
 * Accepts or declines an invitation; afterwards everything is read again, since an accepted one
 * brings a new account and its groups.
 */
export const useAnswerInvitation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { accountId: string; accept: boolean }) =>
      api.call(v.accept ? 'account/invitation/accept' : 'account/invitation/decline', { uuid: v.accountId }),
    onSettled: () => queryClient.invalidateQueries(),
  });
};
