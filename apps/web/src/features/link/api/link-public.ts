import { useMutation, useQuery } from '@tanstack/react-query';
import type { LinkInfoAnswer, LinkUnlockAnswer } from '@imaging-inbox/contract';
import { apiGet, apiPost } from '../../../lib/api-client';
import { ApiError, errorCode } from '../../../lib/api-error';

// The public link calls never carry a session: the outside party has none.
const noSid = { withSid: false } as const;

export const useLinkInfo = (token: string) =>
  useQuery({
    queryKey: ['link-info', token],
    queryFn: ({ signal }) => apiGet<LinkInfoAnswer>('link/public/info', { token }, { ...noSid, signal }),
    retry: false,
  });

export const useUnlockLink = () =>
  useMutation({
    mutationFn: (input: { token: string; password: string }) =>
      apiPost<LinkUnlockAnswer>('link/public/unlock', input, noSid),
  });

/** The server's error_type, also for 429 answers that the generic client reports as unexpected. */
export function linkErrorCode(error: unknown): string {
  if (error instanceof ApiError && error.body && typeof error.body === 'object') {
    const type = (error.body as { error_type?: unknown }).error_type;
    if (typeof type === 'string') return type;
  }
  return errorCode(error);
}
