import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProfileFields } from '@imaging-inbox/contract';
import { api } from '../../../lib/api-client';

const KEY = ['user', 'profile'] as const;

/** user/get: the signed-in user's profile, date format included. */
export const profileQuery = () =>
  queryOptions({
    queryKey: KEY,
    queryFn: ({ signal }) => api.get('user/get', {}, { signal }),
    staleTime: 5 * 60_000,
  });

/** user/set with every field of the form; then the profile and the session's name are refetched. */
export const useSaveProfile = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: ProfileFields) => api.call('user/set', { ...values }),
    onSuccess: (profile) => {
      queryClient.setQueryData(KEY, profile);
      return queryClient.invalidateQueries({ queryKey: ['session', 'user'] });
    },
  });
};

/** user/set with the language alone ('' follows the browser); the cached profile takes the answer. */
export const useSaveLanguage = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (language: string) => api.call('user/set', { language }),
    onSuccess: (profile) => queryClient.setQueryData(KEY, profile),
  });
};

export interface PasswordChange {
  old_password: string;
  password: string;
  password_confirm: string;
}

export const useChangePassword = () =>
  useMutation({ mutationFn: (change: PasswordChange) => api.call('user/password/change', { ...change }) });
