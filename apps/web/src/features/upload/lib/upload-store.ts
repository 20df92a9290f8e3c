import type { UploadRunError } from './upload-errors';

/** One study of an upload run and how its files were answered. */
export interface RunStudy {
  studyUid: string;
  patientName: string;
  patientId: string;
  description: string;
  fileCount: number;
  stored: number;
  duplicates: number;
  failed: number;
}

export interface RunFailure {
  file: File;
  studyUid: string;
  sopInstanceUid?: string;
  name: string;
  code: string;
}

export type RunStatus = 'uploading' | 'succeeded' | 'failed';

/** The latest upload: lives above the routes so the left nav shows it and the user may leave. */
export interface UploadRun {
  id: number;
  status: RunStatus;
  namespaceId: string;
  destinationName: string;
  totalBytes: number;
  uploadedBytes: number;
  /** Files answered so far (stored, duplicate or failed), of `fileCount`. */
  answered: number;
  fileCount: number;
  studies: RunStudy[];
  failures: RunFailure[];
  /** Why a failed run failed, as SPEC.md section 8 names it (`upload-errors.ts`); absent otherwise. */
  error?: UploadRunError;
}

/** New when any file was stored, Duplicate when every answered file was already there. */
export function studyOutcome(study: RunStudy): 'New' | 'Duplicate' | 'Failed' {
  if (study.stored > 0) return 'New';
  if (study.duplicates > 0 && study.duplicates === study.fileCount - study.failed) return 'Duplicate';
  return 'Failed';
}

/**
 * How often a running upload repaints at most. Files are answered many times a second; showing
 * each answer at once re-rendered the page per file, which cost more than the upload itself
 * with a few hundred studies on screen (docs/performance-log.md, upload wizard).
 */
export const PUBLISH_EVERY_MS = 200;

export interface UploadStore {
  /** The run as last published to the page. */
  getSnapshot: () => UploadRun | null;
  subscribe: (listener: () => void) => () => void;
  /** Replaces the run and publishes it at once (start and end of a run). */
  set: (run: UploadRun | null) => void;
  /**
   * Says the run changed: `snapshot` builds the new run when it is next published, at most once
   * per PUBLISH_EVERY_MS however many changes came in between.
   */
  changed: (snapshot: () => UploadRun) => void;
  /** Cancels the running upload, if any. */
  cancel: () => void;
  setCanceller: (cancel: (() => void) | null) => void;
}

/** A tiny external store for useSyncExternalStore whose updates are batched in time. */
export function createUploadStore(publishEveryMs = PUBLISH_EVERY_MS): UploadStore {
  let run: UploadRun | null = null;
  let pending: (() => UploadRun) | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let canceller: (() => void) | null = null;
  const listeners = new Set<() => void>();
  const emit = () => listeners.forEach((l) => l());
  const publish = () => {
    timer = null;
    if (!pending) return;
    run = pending();
    pending = null;
    emit();
  };
  return {
    getSnapshot: () => run,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set: (next) => {
      if (timer) clearTimeout(timer);
      timer = null;
      pending = null;
      run = next;
      emit();
    },
    changed: (snapshot) => {
      pending = snapshot;
      timer ??= setTimeout(publish, publishEveryMs);
    },
    cancel: () => canceller?.(),
    setCanceller: (cancel) => {
      canceller = cancel;
    },
  };
}
