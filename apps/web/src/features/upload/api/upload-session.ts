import type { ImageUploadAnswer, UploadSessionAnswer } from '@imaging-inbox/contract';
import { api } from '../../../lib/api-client';

/**
 * The calls of a resumable upload (docs/api-v3.md "Upload sessions") for one kind of caller:
 * signed-in (the session, under upload/session) or a request link (grant header, under
 * link/public/upload/session). Every call rejects with an ApiError: the 412/413 error_type,
 * NETWORK_ERROR (status 0) or the status.
 */
export interface UploadSessionApi {
  /** `head`: SHA-256 of the file's first bytes, which ties the session to this file. */
  create: (size: number, signal?: AbortSignal, head?: string) => Promise<UploadSessionAnswer>;
  /** With `head`, a session holding another file's start is refused (UPLOAD_RESUME_MISMATCH). */
  status: (id: string, signal?: AbortSignal, head?: string) => Promise<UploadSessionAnswer>;
  chunk: (id: string, offset: number, bytes: Blob, signal?: AbortSignal) => Promise<UploadSessionAnswer>;
  complete: (id: string, signal?: AbortSignal) => Promise<ImageUploadAnswer>;
  /** The single-request upload, for files no larger than one chunk. */
  whole: (file: Blob, signal?: AbortSignal) => Promise<ImageUploadAnswer>;
}

const DICOM = 'application/dicom';
const BYTES = 'application/octet-stream';

/** Signed-in uploads into one group. */
export function signedInUploadApi(namespaceId: string): UploadSessionApi {
  return {
    create: (size, signal, head) =>
      api.upload('upload/session/create', {
        params: { namespace_id: namespaceId, size, head_sha256: head },
        signal,
      }),
    status: (id, signal, head) =>
      api.upload('upload/session/status', { method: 'GET', params: { id, head_sha256: head }, signal }),
    chunk: (id, offset, bytes, signal) =>
      api.upload('upload/session/chunk', {
        method: 'PUT',
        params: { id, offset },
        contentType: BYTES,
        body: bytes,
        signal,
      }),
    complete: (id, signal) => api.upload('upload/session/complete', { params: { id }, signal }),
    whole: (file, signal) =>
      api.upload('storage/namespace/:namespace_id/image', {
        route: { namespace_id: namespaceId },
        contentType: DICOM,
        body: file,
        signal,
      }),
  };
}

/** Uploads through a request link's grant (no session: the outside party has none). */
export function linkUploadApi(grant: string): UploadSessionApi {
  return {
    create: (size, signal, head) =>
      api.upload('link/public/upload/session/create', {
        params: { size, head_sha256: head },
        linkGrant: grant,
        signal,
      }),
    status: (id, signal, head) =>
      api.upload('link/public/upload/session/status', {
        method: 'GET',
        params: { id, head_sha256: head },
        linkGrant: grant,
        signal,
      }),
    chunk: (id, offset, bytes, signal) =>
      api.upload('link/public/upload/session/chunk', {
        method: 'PUT',
        params: { id, offset },
        contentType: BYTES,
        body: bytes,
        linkGrant: grant,
        signal,
      }),
    complete: (id, signal) =>
      api.upload('link/public/upload/session/complete', { params: { id }, linkGrant: grant, signal }),
    whole: (file, signal) =>
      api.upload('link/public/upload', { contentType: DICOM, body: file, linkGrant: grant, signal }),
  };
}
