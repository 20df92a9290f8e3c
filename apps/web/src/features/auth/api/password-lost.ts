import { api } from '../../../lib/api-client';
import { useAction } from '../../../lib/use-action';
import type { PasswordLostValues } from '../schemas';

export const passwordLost = (values: PasswordLostValues) =>
  api.call('user/password/lost', { email: values.email.trim() }, { withSid: false });

/** Shown on the sign-in page, which loads no query library. */
export const usePasswordLost = () => useAction(passwordLost);
