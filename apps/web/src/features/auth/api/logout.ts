import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '../../../lib/api-client';
import { clearSession } from '../../../lib/storage';

export const logout = () => api.get('session/logout');

/** Ends the session on the server; whatever the answer, local session data is cleared. */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: logout,
    onSettled: (answer) => {
      clearSession();
      queryClient.clear();
      // A session from a provider that offers RP-initiated logout ends there too; it sends the
      // browser back to sign-in.
      if (answer?.logout_url) window.location.assign(answer.logout_url);
      else void navigate('/', { replace: true });
    },
  });
}
