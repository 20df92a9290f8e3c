import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';

export const passwordReset = (input: { token: string; password: string }) =>
  apiPost<{ status: 'OK' }>('user/password/reset', input, { withSid: false });

export const usePasswordReset = () => useMutation({ mutationFn: passwordReset });
