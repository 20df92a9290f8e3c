import { api } from '../../../lib/api-client';
import { signedIn } from '../../../lib/session-events';
import { STORAGE_KEYS, setSid } from '../../../lib/storage';
import { useAction } from '../../../lib/use-action';
import type { LoginValues } from '../login-rules';
import { getSessionUser, rememberSignedInUser } from './signed-in-user';

/** The password, and on the second call the two-factor code MFA_REQUIRED asked for. */
export type SignInValues = LoginValues & { otp?: string };

export const login = (values: SignInValues) =>
  api.call(
    'session/login',
    {
      login: values.login.trim(),
      password: values.password,
      ...(values.otp !== undefined ? { otp: values.otp.trim() } : {}),
    },
    { withSid: false },
  );

/** Signs in; `recoveryCodes` when this sign-in enrolled a two-factor code (shown once). */
async function signIn(values: SignInValues) {
  const answer = await login(values);
  // Nothing cached for a previous user may leak into this session.
  signedIn();
  setSid(answer.sid);
  const user = await getSessionUser();
  if (user.ui_json !== null) sessionStorage.setItem(STORAGE_KEYS.uiJson, user.ui_json);
  rememberSignedInUser(answer.sid, user);
  return { user, recoveryCodes: answer.recovery_codes ?? null };
}

/** Logs in, stores the sid, then establishes the session user before the inbox opens. */
export const useLogin = () => useAction(signIn);
