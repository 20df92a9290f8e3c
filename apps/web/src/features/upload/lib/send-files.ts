import { runJobs, type JobOutcome } from '../../../lib/job-queue';
import { isRetryableUpload } from '../api/upload-image';
import type { UploadSessionApi } from '../api/upload-session';
import { fileKeys } from './file-identity';
import { sendResumable, type ResumableFile, type SendResult } from './resumable-send';
import { browserResumeStore } from './resume-idb';
import { UPLOAD_BACKOFF_MS, UPLOAD_CONCURRENCY, UPLOAD_RETRIES } from './upload-runner';

export interface SendFilesOptions {
  api: UploadSessionApi;
  /** Destination (namespace id, or the link) the resume records belong to. */
  scope: string;
  /** Told how many bytes of a file the server holds so far. */
  onHeld: (file: File, bytes: number) => void;
  onSettled: (outcome: JobOutcome<ResumableFile, SendResult>) => void;
}

/**
 * Sends files the way the upload wizard does: three at a time with retries, large files in chunks
 * that resume after a drop or a reload of the page. For callers outside the wizard's own run (the
 * request-link page), which keep their own progress and failure lists.
 */
export async function sendFiles(list: ResumableFile[], options: SendFilesOptions): Promise<void> {
  const { api, scope } = options;
  const store = browserResumeStore();
  // Every file's resume record in one read, so no file waits on IndexedDB as it is sent. Only a
  // shortcut: a file that cannot be read now fails (or is read) when its turn comes.
  await fileKeys(list)
    .then((keys) => store.getMany(scope, keys))
    .catch(() => undefined);
  await runJobs(
    list,
    {
      concurrency: UPLOAD_CONCURRENCY,
      retries: UPLOAD_RETRIES,
      backoffMs: UPLOAD_BACKOFF_MS,
      retryable: isRetryableUpload,
      onSettled: options.onSettled,
    },
    (item, signal) =>
      sendResumable(item, { api, store, scope, signal, onHeld: (n) => options.onHeld(item.file, n) }),
  );
}

/** Subscribes to 'resume records cannot be kept' (no IndexedDB); returns the unsubscribe. */
export function onResumeUnavailable(listener: () => void): () => void {
  return browserResumeStore().onUnavailable(listener);
}
