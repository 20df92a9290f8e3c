import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const passwordReset = (input: { token: string; password: string }) =>
  api.call('user/password/reset', input, { withSid: false });

export const usePasswordReset = () => useMutation({ mutationFn: passwordReset });
