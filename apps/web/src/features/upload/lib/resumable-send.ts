import type { ImageUploadAnswer, UploadOffsetErrorData } from '@imaging-inbox/contract';
import { UPLOAD_CHUNK_BYTES } from '@imaging-inbox/contract';
import { ApiError, CLIENT_ERROR_CODES, errorBody } from '../../../lib/api-error';
import type { UploadSessionApi } from '../api/upload-session';
import { fileKey, headSha256 } from './file-identity';
import { uploadBody } from './media-file';
import type { ResumeStore } from './resume-store';

export interface ResumableFile {
  file: File;
  sopInstanceUid?: string;
}

export interface SendContext {
  api: UploadSessionApi;
  store: ResumeStore;
  /** Destination (namespace id, or the link) the resume records belong to. */
  scope: string;
  chunkBytes?: number;
  /** Told how many bytes of this file the server holds (all of them for a skipped file). */
  onHeld?: (bytes: number) => void;
  signal?: AbortSignal;
}

/** What a sent file answers; `skipped` when an earlier page load already stored it. */
export interface SendResult {
  duplicate: boolean;
  skipped: boolean;
}

const isNetwork = (error: unknown) => error instanceof ApiError && error.code === CLIENT_ERROR_CODES.network;
const isCode = (error: unknown, ...codes: string[]) =>
  error instanceof ApiError && codes.includes(error.code);

/** How long to wait before asking again when another request is appending to the same session. */
export const IN_PROGRESS_WAIT_MS = 500;
const isOffline = () => typeof navigator !== 'undefined' && !navigator.onLine;

/** Resolves once the browser says it is online again (at once if it is), or rejects on abort. */
export function waitOnline(signal?: AbortSignal): Promise<void> {
  if (!isOffline()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = () => {
      window.removeEventListener('online', done);
      signal?.removeEventListener('abort', aborted);
      resolve();
    };
    const aborted = () => {
      window.removeEventListener('online', done);
      reject(new DOMException('Aborted', 'AbortError'));
    };
    window.addEventListener('online', done);
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

/**
 * Sends one file so that an interruption costs at most one chunk: a file already stored by an
 * earlier page load is skipped; a file up to one chunk goes in one request; a larger one goes in
 * chunks sliced from the File (never read whole) to an upload session whose id is remembered, so
 * after a drop or a reload it goes on from the offset the server holds. While the browser is
 * offline it waits instead of failing. Other errors reject for the caller's retry policy.
 */
export async function sendResumable(item: ResumableFile, ctx: SendContext): Promise<SendResult> {
  const { file } = item;
  const { api, store, scope, signal } = ctx;
  const chunkBytes = ctx.chunkBytes ?? UPLOAD_CHUNK_BYTES;
  const key = await fileKey(file, item.sopInstanceUid, chunkBytes);
  const record = await store.get(scope, key);
  if (record?.done) {
    ctx.onHeld?.(file.size);
    return { duplicate: false, skipped: true };
  }
  // A deflated ZIP entry is inflated only now, after the skip check.
  const body = await uploadBody(file);
  let answer: ImageUploadAnswer;
  if (body.size <= chunkBytes) {
    answer = await whileOnline(signal, () => api.whole(body, signal));
    ctx.onHeld?.(body.size);
  } else {
    answer = await sendInChunks(body, key, record?.session, ctx, chunkBytes);
  }
  await store.set(scope, key, { done: 1 });
  return { duplicate: answer.duplicate, skipped: false };
}

/**
 * Sends `file` to the remembered session from the offset the server holds, or to a new one. The
 * session is tied to the file by the SHA-256 of its head: a remembered session holding another
 * file's start (UPLOAD_RESUME_MISMATCH, on resume or on the chunk completing the head) is dropped
 * and the file starts over from zero in a new session, once.
 */
async function sendInChunks(
  file: Blob,
  key: string,
  known: string | undefined,
  ctx: SendContext,
  chunkBytes: number,
): Promise<ImageUploadAnswer> {
  const { api, store, scope, signal } = ctx;
  const head = await headSha256(file);
  let id: string | undefined;
  let held = 0;
  if (known) {
    try {
      const status = await whileOnline(signal, () => api.status(known, signal, head));
      id = known;
      held = status.received;
      if (status.completed) return await api.complete(known, signal);
    } catch (error) {
      // Expired, opened by another sign-in, or another file's: start this file over.
      if (!isCode(error, 'NOT_FOUND', 'UPLOAD_RESUME_MISMATCH')) throw error;
    }
  }
  for (let fresh = !id; ; fresh = true) {
    if (!id) {
      const created = await whileOnline(signal, () => api.create(file.size, signal, head));
      id = created.id;
      held = 0;
      await store.set(scope, key, { session: id });
      // Kept before the first chunk goes: a reload from here on resumes this session.
      await store.flush();
    }
    try {
      return await sendFrom(file, id, held, ctx, chunkBytes);
    } catch (error) {
      // A resumed session turned out to hold another file's start: once more, from zero.
      if (fresh || !isCode(error, 'UPLOAD_RESUME_MISMATCH')) throw error;
      id = undefined;
    }
  }
}

/** Sends the chunks of `file` from `held` on, following the offset the server holds, and completes. */
async function sendFrom(
  file: Blob,
  sessionId: string,
  held: number,
  ctx: SendContext,
  chunkBytes: number,
): Promise<ImageUploadAnswer> {
  const { api, signal } = ctx;
  ctx.onHeld?.(held);
  let offset = held;
  while (offset < file.size) {
    const from = offset;
    try {
      const answer = await api.chunk(sessionId, from, file.slice(from, from + chunkBytes), signal);
      offset = answer.received;
    } catch (error) {
      if (isNetwork(error) && isOffline()) {
        // The connection went away mid-chunk: wait for it, then ask what arrived.
        await waitOnline(signal);
        offset = (await whileOnline(signal, () => api.status(sessionId, signal))).received;
      } else if (isCode(error, 'UPLOAD_OFFSET_MISMATCH')) {
        offset = offsetOf(error);
      } else if (isCode(error, 'UPLOAD_CHUNK_IN_PROGRESS')) {
        // Another request (an earlier attempt still streaming) appends here: let it finish.
        await pause(IN_PROGRESS_WAIT_MS, signal);
        offset = (await whileOnline(signal, () => api.status(sessionId, signal))).received;
      } else {
        throw error;
      }
    }
    ctx.onHeld?.(offset);
  }
  return whileOnline(signal, () => api.complete(sessionId, signal));
}

const offsetOf = (error: unknown) =>
  (errorBody(error)?.error_data as UploadOffsetErrorData | undefined)?.received ?? 0;

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new DOMException('Aborted', 'AbortError'));
      },
      { once: true },
    );
  });
}

/** Runs `call`, and again after the browser is back online if it failed because it was offline. */
async function whileOnline<T>(signal: AbortSignal | undefined, call: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (!isNetwork(error) || !isOffline()) throw error;
      await waitOnline(signal);
    }
  }
}
