import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { errorBody, errorCode } from '../../../lib/api-error';

// The public link calls never carry a session: the outside party has none.
const noSid = { withSid: false } as const;

export const useLinkInfo = (token: string) =>
  useQuery({
    queryKey: ['link-info', token],
    queryFn: ({ signal }) => api.get('link/public/info', { token }, { ...noSid, signal }),
    retry: false,
  });

export const useUnlockLink = () =>
  useMutation({
    mutationFn: (input: { token: string; password: string }) => api.call('link/public/unlock', input, noSid),
  });

/** The server's error_type, also for 429 answers that the generic client reports as unexpected. */
export function linkErrorCode(error: unknown): string {
  return errorBody(error)?.error_type ?? errorCode(error);
}
