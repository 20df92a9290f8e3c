import { useMutation, useQuery } from '@tanstack/react-query';
import type { ImageUploadAnswer, LinkInfoAnswer, LinkUnlockAnswer } from '@imaging-inbox/contract';
import { API_BASE, apiGet, apiPost } from '../../../lib/api-client';
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

/** One file to link/public/upload as raw application/dicom; resolves on 202, else an ApiError. */
export async function uploadLinkFile(
  grant: string,
  file: Blob,
  signal?: AbortSignal,
): Promise<ImageUploadAnswer> {
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/link/public/upload`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/dicom', 'X-Link-Grant': grant },
      body: file,
      signal,
    });
  } catch {
    throw new ApiError('NETWORK_ERROR', 0);
  }
  const body = (await response.json().catch(() => ({}))) as { error_type?: string };
  if (response.status !== 202 && response.status !== 200) {
    throw new ApiError(body.error_type ?? 'UNEXPECTED_ERROR', response.status, body);
  }
  return body as ImageUploadAnswer;
}

/** The server's error_type, also for 429 answers that the generic client reports as unexpected. */
export function linkErrorCode(error: unknown): string {
  if (error instanceof ApiError && error.body && typeof error.body === 'object') {
    const type = (error.body as { error_type?: unknown }).error_type;
    if (typeof type === 'string') return type;
  }
  return errorCode(error);
}
