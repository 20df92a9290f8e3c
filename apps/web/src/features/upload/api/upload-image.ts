import type { ImageUploadAnswer } from '@imaging-inbox/contract';
import { API_BASE } from '../../../lib/api-client';
import { ApiError, CLIENT_ERROR_CODES } from '../../../lib/api-error';
import { clearSession, getSid } from '../../../lib/storage';

/**
 * POST storage/namespace/{id}/image with the File itself as the raw application/dicom body, so the
 * browser streams it from disk. Resolves on 202 (or 200); otherwise an ApiError with the 412/413
 * error_type, NETWORK_ERROR, or the status.
 */
export async function uploadImage(
  namespaceId: string,
  file: Blob,
  signal?: AbortSignal,
): Promise<ImageUploadAnswer> {
  const query = new URLSearchParams({ sid: getSid() ?? '' });
  let response: Response;
  try {
    response = await fetch(
      `${API_BASE}/storage/namespace/${encodeURIComponent(namespaceId)}/image?${query}`,
      {
        method: 'POST',
        credentials: 'same-origin',
        headers: {
          'Content-Type': 'application/dicom',
          'X-Requested-With': 'XMLHttpRequest',
          'X-Client': `imaging-inbox-web/${__APP_VERSION__}`,
        },
        body: file,
        signal,
      },
    );
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(CLIENT_ERROR_CODES.network, 0);
  }
  if (response.status === 401) {
    clearSession();
    throw new ApiError(CLIENT_ERROR_CODES.unauthorized, 401);
  }
  const body = (await response.json().catch(() => ({}))) as { error_type?: string };
  if (response.status !== 202 && response.status !== 200) {
    throw new ApiError(body.error_type ?? CLIENT_ERROR_CODES.unexpected, response.status, body);
  }
  return body as ImageUploadAnswer;
}

/** Worth another attempt: the network dropped or the server had a passing problem. */
export function isRetryableUpload(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return error.status === 0 || error.status === 429 || error.status >= 500;
}
