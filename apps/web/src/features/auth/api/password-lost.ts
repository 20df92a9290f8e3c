import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import type { PasswordLostValues } from '../schemas';

export const passwordLost = (values: PasswordLostValues) =>
  apiPost<{ status: 'OK' }>('user/password/lost', { email: values.email.trim() }, { withSid: false });

export const usePasswordLost = () => useMutation({ mutationFn: passwordLost });
