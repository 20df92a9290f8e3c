import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

const KEY = ['user', 'totp'] as const;

/** user/totp/get: whether the caller's two-factor codes are on, required, and recovery codes left. */
export const totpStatusQuery = () =>
  queryOptions({
    queryKey: KEY,
    queryFn: ({ signal }) => api.get('user/totp/get', {}, { signal }),
  });

/** user/totp/enrol: a new secret to scan (not on until a code confirms it). */
export const useStartTotp = () => useMutation({ mutationFn: () => api.call('user/totp/enrol', {}) });

/** user/totp/confirm: the first code turns codes on and answers the recovery codes. */
export const useConfirmTotp = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (otp: string) => api.call('user/totp/confirm', { otp: otp.trim() }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
};

/** user/totp/disable with a current code. */
export const useDisableTotp = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (otp: string) => api.call('user/totp/disable', { otp: otp.trim() }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
};

/** account/two_factor/set (account admins): require codes of every member. */
export const useRequireTwoFactor = (accountId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (required: boolean) =>
      api.call('account/two_factor/set', { account_id: accountId, required: required ? '1' : '0' }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: KEY }),
        queryClient.invalidateQueries({ queryKey: ['account'] }),
      ]),
  });
};
