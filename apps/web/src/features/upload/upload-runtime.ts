import { useSyncExternalStore } from 'react';
import { enqueueSnackbar } from 'notistack';
import { MESSAGES } from '@imaging-inbox/contract';
import { t } from '../../lib/i18n';
import { errorCode } from '../../lib/api-error';
import { isRetryableUpload } from './api/upload-image';
import { signedInUploadApi } from './api/upload-session';
import { signedInStudyRegistrar } from './api/study-register';
import { browserResumeStore } from './lib/resume-idb';
import { sendResumable } from './lib/resumable-send';
import { retryFailed, runUpload, type UploadDeps, type UploadStudyInput } from './lib/upload-runner';
import { UPLOAD_RUN_ERRORS } from './lib/upload-errors';
import { createUploadStore, type UploadRun } from './lib/upload-store';

/** The one upload of this page: module scope, so it outlives the wizard page and its route. */
export const uploadStore = createUploadStore();

const finishListeners = new Set<(run: UploadRun) => void>();

/** Called after every run (for example to refresh study lists); returns the unsubscribe. */
export function onUploadFinished(listener: (run: UploadRun) => void): () => void {
  finishListeners.add(listener);
  return () => finishListeners.delete(listener);
}

/** Survives a reload: which files were stored and which upload session each large file is in. */
export const resumeStore = browserResumeStore();

// Said once per page, not failed silently: a refused or full IndexedDB only costs the resume.
resumeStore.onUnavailable(() => {
  enqueueSnackbar(t(MESSAGES.uploadResumeUnavailable), { variant: 'warning' });
});

const deps: UploadDeps = {
  send: (namespaceId, file, signal, extra) =>
    sendResumable(
      { file, sopInstanceUid: extra.sopInstanceUid },
      {
        api: signedInUploadApi(namespaceId),
        store: resumeStore,
        scope: namespaceId,
        signal,
        onHeld: extra.onHeld,
      },
    ),
  codeOf: errorCode,
  retryable: isRetryableUpload,
  finished: (ok) => {
    enqueueSnackbar(t(ok ? MESSAGES.uploadDone : MESSAGES.uploadFailed), {
      variant: ok ? 'success' : 'error',
    });
    const run = uploadStore.getSnapshot();
    if (run) finishListeners.forEach((l) => l(run));
  },
};

/** Retries use the sender of the run they retry (DICOM or wrapped). */
let lastDeps: UploadDeps = deps;

export function useUploadRun(): UploadRun | null {
  return useSyncExternalStore(uploadStore.subscribe, uploadStore.getSnapshot);
}

export function startUpload(
  target: { namespaceId: string; destinationName: string },
  studies: UploadStudyInput[],
): void {
  // DICOM files carry their study UID: each study is made (study/add) before its files and listed
  // (study/sync) after them. A wrapped upload's study is made by the server with its first file.
  lastDeps = { ...deps, registrar: signedInStudyRegistrar };
  void runUpload(uploadStore, target, studies, lastDeps);
}

/** The non-DICOM upload: each file wrapped into DICOM by the server, all into one new study. */
export function startWrapUpload(
  target: { namespaceId: string; destinationName: string },
  study: Omit<UploadStudyInput, 'files'>,
  files: File[],
  send: (file: File, signal: AbortSignal) => Promise<{ duplicate: boolean }>,
): void {
  lastDeps = {
    ...deps,
    send: (_namespaceId, file, signal) => send(file, signal),
    failedRunError: UPLOAD_RUN_ERRORS.nonDicomFailed,
  };
  void runUpload(uploadStore, target, [{ ...study, files }], lastDeps);
}

export function retryFailedFiles(): void {
  void retryFailed(uploadStore, lastDeps);
}

export function cancelUpload(): void {
  uploadStore.cancel();
}
