import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { SESSION_POLL_MS } from '@imaging-inbox/contract';
import { getSessionTtl } from '../features/auth';
import { errorCode } from '../lib/api-error';
import { clearSession } from '../lib/storage';

/** Polls session/ttl every 5 minutes while the window has focus; EXPIRED logs the user out. */
export function useSessionTtlPoll(intervalMs: number = SESSION_POLL_MS): void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (!document.hasFocus()) return;
      getSessionTtl().catch((error: unknown) => {
        if (errorCode(error) !== 'EXPIRED') return;
        clearSession();
        queryClient.clear();
        void navigate('/', { replace: true });
      });
    }, intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs, navigate, queryClient]);
}
