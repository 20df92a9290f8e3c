import type { LoginAnswer } from '@imaging-inbox/contract';
import { apiPost } from '../../../lib/api-client';
import { signedIn } from '../../../lib/session-events';
import { STORAGE_KEYS, setSid } from '../../../lib/storage';
import { useAction } from '../../../lib/use-action';
import type { LoginValues } from '../login-rules';
import { getSessionUser, rememberSignedInUser } from './signed-in-user';

export const login = (values: LoginValues) =>
  apiPost<LoginAnswer>(
    'session/login',
    { login: values.login.trim(), password: values.password },
    { withSid: false },
  );

async function signIn(values: LoginValues) {
  const answer = await login(values);
  // Nothing cached for a previous user may leak into this session.
  signedIn();
  setSid(answer.sid);
  const user = await getSessionUser();
  if (user.ui_json !== null) sessionStorage.setItem(STORAGE_KEYS.uiJson, user.ui_json);
  rememberSignedInUser(answer.sid, user);
  return user;
}

/** Logs in, stores the sid, then establishes the session user before the inbox opens. */
export const useLogin = () => useAction(signIn);
