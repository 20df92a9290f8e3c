import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginAnswer } from '@imaging-inbox/contract';
import { apiPost } from '../../../lib/api-client';
import { STORAGE_KEYS, setSid } from '../../../lib/storage';
import type { LoginValues } from '../schemas';
import { sessionUserQuery } from './session-user';

export const login = (values: LoginValues) =>
  apiPost<LoginAnswer>(
    'session/login',
    { login: values.login.trim(), password: values.password },
    { withSid: false },
  );

/** Logs in, stores the sid, then establishes the session user before the inbox opens. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (values: LoginValues) => {
      const answer = await login(values);
      // Nothing cached for a previous user may leak into this session.
      queryClient.clear();
      setSid(answer.sid);
      const user = await queryClient.fetchQuery(sessionUserQuery(answer.sid));
      if (user.ui_json !== null) sessionStorage.setItem(STORAGE_KEYS.uiJson, user.ui_json);
      return user;
    },
  });
}
