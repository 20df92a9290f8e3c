import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ACCOUNT_LANGUAGE_PARAM, type Language } from '@imaging-inbox/contract';
import { api } from '../../../lib/api-client';

/** account/set of the account's default language ('' forgets it); the account is read again after. */
export const useSetAccountLanguage = (accountId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (language: Language | '') =>
      api.call('account/set', { uuid: accountId, [ACCOUNT_LANGUAGE_PARAM]: language }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account', 'get', accountId] }),
  });
};
