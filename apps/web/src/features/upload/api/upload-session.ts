import type { ImageUploadAnswer, UploadSessionAnswer } from '@imaging-inbox/contract';
import { API_BASE } from '../../../lib/api-client';
import { getSid } from '../../../lib/storage';
import { uploadRequest } from './upload-request';

/**
 * The calls of a resumable upload (docs/api-v3.md "Upload sessions") for one kind of caller:
 * signed-in (sid in the query, under upload/session) or a request link (grant header, under
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

interface Caller {
  base: string;
  query: () => Record<string, string>;
  headers: () => Record<string, string>;
  /** Extra parameters of create (the destination group of a signed-in upload). */
  createParams: Record<string, string>;
  /** Where a whole file goes in one request. */
  wholeUrl: string;
}

function call<T>(
  caller: Caller,
  url: string,
  params: Record<string, string | number>,
  init: RequestInit,
): Promise<T> {
  const query = new URLSearchParams({ ...caller.query(), ...stringify(params) });
  return uploadRequest<T>(`${url}?${query.toString()}`, {
    ...init,
    headers: { ...caller.headers(), ...(init.headers as Record<string, string> | undefined) },
  });
}

const stringify = (params: Record<string, string | number>) =>
  Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]));

const headParam = (head: string | undefined): Record<string, string> => (head ? { head_sha256: head } : {});

function sessionApi(caller: Caller): UploadSessionApi {
  const url = (name: string) => `${API_BASE}/${caller.base}/${name}`;
  return {
    create: (size, signal, head) =>
      call(caller, url('create'), { ...caller.createParams, size, ...headParam(head) }, { signal }),
    status: (id, signal, head) =>
      call(caller, url('status'), { id, ...headParam(head) }, { method: 'GET', signal }),
    chunk: (id, offset, bytes, signal) =>
      call(
        caller,
        url('chunk'),
        { id, offset },
        { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream' }, body: bytes, signal },
      ),
    complete: (id, signal) => call(caller, url('complete'), { id }, { signal }),
    whole: (file, signal) =>
      call(
        caller,
        caller.wholeUrl,
        {},
        { headers: { 'Content-Type': 'application/dicom' }, body: file, signal },
      ),
  };
}

/** Signed-in uploads into one group. */
export function signedInUploadApi(namespaceId: string): UploadSessionApi {
  return sessionApi({
    base: 'upload/session',
    query: () => ({ sid: getSid() ?? '' }),
    headers: () => ({}),
    createParams: { namespace_id: namespaceId },
    wholeUrl: `${API_BASE}/storage/namespace/${encodeURIComponent(namespaceId)}/image`,
  });
}

/** Uploads through a request link's grant (no session: the outside party has none). */
export function linkUploadApi(grant: string): UploadSessionApi {
  return sessionApi({
    base: 'link/public/upload/session',
    query: () => ({}),
    headers: () => ({ 'X-Link-Grant': grant }),
    createParams: {},
    wholeUrl: `${API_BASE}/link/public/upload`,
  });
}
