import type { ImageUploadAnswer } from '@imaging-inbox/contract';
import { api } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';

/**
 * POST storage/namespace/{id}/image with the File itself as the raw application/dicom body, so the
 * browser streams it from disk. Resolves on 202 (or 200); otherwise an ApiError with the 412/413
 * error_type, NETWORK_ERROR, or the status.
 */
export function uploadImage(
  namespaceId: string,
  file: Blob,
  signal?: AbortSignal,
): Promise<ImageUploadAnswer> {
  return api.upload('storage/namespace/:namespace_id/image', {
    route: { namespace_id: namespaceId },
    contentType: 'application/dicom',
    body: file,
    signal,
  });
}

/** Worth another attempt: the network dropped or the server had a passing problem. */
export function isRetryableUpload(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return error.status === 0 || error.status === 429 || error.status >= 500;
}
