import type { ImageUploadAnswer } from '@imaging-inbox/contract';
import { API_BASE } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
import { getSid } from '../../../lib/storage';
import { uploadRequest } from './upload-request';

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
  const query = new URLSearchParams({ sid: getSid() ?? '' });
  return uploadRequest<ImageUploadAnswer>(
    `${API_BASE}/storage/namespace/${encodeURIComponent(namespaceId)}/image?${query}`,
    { headers: { 'Content-Type': 'application/dicom' }, body: file, signal },
  );
}

/** Worth another attempt: the network dropped or the server had a passing problem. */
export function isRetryableUpload(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return error.status === 0 || error.status === 429 || error.status >= 500;
}
