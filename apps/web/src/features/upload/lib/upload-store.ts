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
  studies: RunStudy[];
  failures: RunFailure[];
}

/** New when any file was stored, Duplicate when every answered file was already there. */
export function studyOutcome(study: RunStudy): 'New' | 'Duplicate' | 'Failed' {
  if (study.stored > 0) return 'New';
  if (study.duplicates > 0 && study.duplicates === study.fileCount - study.failed) return 'Duplicate';
  return 'Failed';
}

export interface UploadStore {
  getSnapshot: () => UploadRun | null;
  subscribe: (listener: () => void) => () => void;
  set: (run: UploadRun | null) => void;
  update: (change: (run: UploadRun) => UploadRun) => void;
  /** Cancels the running upload, if any. */
  cancel: () => void;
  setCanceller: (cancel: (() => void) | null) => void;
}

/** A tiny external store for useSyncExternalStore. */
export function createUploadStore(): UploadStore {
  let run: UploadRun | null = null;
  let canceller: (() => void) | null = null;
  const listeners = new Set<() => void>();
  const emit = () => listeners.forEach((l) => l());
  return {
    getSnapshot: () => run,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set: (next) => {
      run = next;
      emit();
    },
    update: (change) => {
      if (!run) return;
      run = change(run);
      emit();
    },
    cancel: () => canceller?.(),
    setCanceller: (cancel) => {
      canceller = cancel;
    },
  };
}
