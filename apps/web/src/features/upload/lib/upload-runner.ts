import { JobAbortedError, runJobs } from '../../../lib/job-queue';
import { RunTally } from './run-tally';
import { StudyRegistration, type StudyRegistrar } from './study-registration';
import { UPLOAD_RUN_ERRORS, type UploadRunError } from './upload-errors';
import type { RunFailure, RunStudy, UploadRun, UploadStore } from './upload-store';

/** Files in flight at once, and extra attempts per file (SPEC.md leaves both open). */
export const UPLOAD_CONCURRENCY = 3;
export const UPLOAD_RETRIES = 3;
export const UPLOAD_BACKOFF_MS = 500;

export interface UploadFileJob {
  file: File;
  studyUid: string;
  sopInstanceUid?: string;
}

export interface UploadStudyInput {
  studyUid: string;
  patientName: string;
  patientId: string;
  description: string;
  files: File[];
  /** The SOP Instance UID of each file, when its header was read (part of its resume identity). */
  sopInstanceUids?: string[];
}

export interface SendExtra {
  sopInstanceUid?: string;
  /** How many bytes of this file the server holds so far, for the progress bar. */
  onHeld: (bytes: number) => void;
}

export interface UploadDeps {
  /** Sends one file; resolves with whether the server already had it. */
  send: (
    namespaceId: string,
    file: File,
    signal: AbortSignal,
    extra: SendExtra,
  ) => Promise<{ duplicate: boolean }>;
  /** The error code shown for a failed file. */
  codeOf: (error: unknown) => string;
  /** Whether a failed attempt is worth retrying (network, 5xx), not a refused file. */
  retryable: (error: unknown) => boolean;
  /** Told once the run ends. */
  finished: (ok: boolean) => void;
  /** study/add before a study's files and study/sync after them; none where the server makes the study. */
  registrar?: StudyRegistrar;
  /** The run's code when a file failed: FILE_UPLOAD_FAILED, or NON_DICOM_UPLOAD_FAILED for wrapped files. */
  failedRunError?: UploadRunError;
  backoffMs?: number;
}

let nextRunId = 1;

/**
 * Uploads every file of `studies` to the namespace through a job queue, keeping the store current
 * (bytes done, per-study answers, failed files). Resolves with the final run.
 */
export async function runUpload(
  store: UploadStore,
  target: { namespaceId: string; destinationName: string },
  studies: UploadStudyInput[],
  deps: UploadDeps,
  previous?: RunStudy[],
): Promise<UploadRun> {
  const jobs: UploadFileJob[] = studies.flatMap((s) =>
    s.files.map((file, i) => ({ file, studyUid: s.studyUid, sopInstanceUid: s.sopInstanceUids?.[i] })),
  );
  const controller = new AbortController();
  if (!target.namespaceId || jobs.length === 0) return noUploadInfo(store, target, deps);
  const runStudies: RunStudy[] =
    previous ??
    studies.map((s) => ({
      studyUid: s.studyUid,
      patientName: s.patientName,
      patientId: s.patientId,
      description: s.description,
      fileCount: s.files.length,
      stored: 0,
      duplicates: 0,
      failed: 0,
    }));
  const tally = new RunTally(
    {
      id: nextRunId++,
      ...target,
      totalBytes: jobs.reduce((n, j) => n + j.file.size, 0),
      fileCount: jobs.length,
    },
    // A retry sends every failed file again, so their counts start over.
    runStudies.map((s) => ({ ...s, failed: 0 })),
  );
  const changed = () => store.changed(() => tally.snapshot('uploading'));
  const registration =
    deps.registrar &&
    new StudyRegistration(
      deps.registrar,
      target.namespaceId,
      studies.map((s) => {
        const before = runStudies.find((r) => r.studyUid === s.studyUid);
        return {
          studyUid: s.studyUid,
          files: s.files.length,
          alreadySent: previous && before ? before.stored + before.duplicates : 0,
        };
      }),
      { retryable: deps.retryable, retries: UPLOAD_RETRIES, backoffMs: deps.backoffMs ?? UPLOAD_BACKOFF_MS },
    );
  store.set(tally.snapshot('uploading'));
  store.setCanceller(() => controller.abort());

  // Bytes the server holds per file in flight, so a chunked file moves the bar chunk by chunk, once.
  const held = new Map<UploadFileJob, number>();
  const hold = (job: UploadFileJob, bytes: number) => {
    const before = held.get(job) ?? 0;
    if (bytes <= before) return;
    held.set(job, bytes);
    tally.addBytes(bytes - before);
    changed();
  };

  await runJobs<UploadFileJob, { duplicate: boolean }>(
    jobs,
    {
      concurrency: UPLOAD_CONCURRENCY,
      retries: UPLOAD_RETRIES,
      backoffMs: deps.backoffMs ?? UPLOAD_BACKOFF_MS,
      signal: controller.signal,
      retryable: deps.retryable,
      onSettled: (outcome) => {
        const job = outcome.item;
        registration?.settled(job.studyUid, outcome.ok);
        if (outcome.ok) {
          hold(job, job.file.size);
          tally.stored(job.studyUid, outcome.value.duplicate);
        } else {
          tally.failed({
            file: job.file,
            studyUid: job.studyUid,
            sopInstanceUid: job.sopInstanceUid,
            name: job.file.webkitRelativePath || job.file.name,
            code: outcome.aborted ? 'JOB_FAILED' : deps.codeOf(outcome.error),
          });
        }
        held.delete(job);
        changed();
      },
    },
    (job, signal) => {
      const send = () => {
        // Cancelled while study/add was answering: the file is not started.
        if (signal.aborted) throw new JobAbortedError();
        return deps.send(target.namespaceId, job.file, signal, {
          sopInstanceUid: job.sopInstanceUid,
          onHeld: (bytes) => hold(job, bytes),
        });
      };
      return registration ? registration.before(job.studyUid).then(send) : send();
    },
  );

  store.setCanceller(null);
  // The run ends once its studies are listed, so a list refreshed on "finished" shows them.
  await registration?.done();
  const final = tally.failureCount
    ? tally.snapshot(
        'failed',
        controller.signal.aborted
          ? UPLOAD_RUN_ERRORS.cancelled
          : (deps.failedRunError ?? UPLOAD_RUN_ERRORS.fileFailed),
      )
    : tally.snapshot('succeeded');
  store.set(final);
  deps.finished(final.status === 'succeeded');
  return final;
}

/** A run with no exam, no file or no destination namespace: nothing is sent, it fails at once. */
function noUploadInfo(
  store: UploadStore,
  target: { namespaceId: string; destinationName: string },
  deps: UploadDeps,
): UploadRun {
  const run: UploadRun = {
    id: nextRunId++,
    status: 'failed',
    namespaceId: target.namespaceId,
    destinationName: target.destinationName,
    totalBytes: 0,
    uploadedBytes: 0,
    answered: 0,
    fileCount: 0,
    studies: [],
    failures: [],
    error: UPLOAD_RUN_ERRORS.noUploadInfo,
  };
  store.set(run);
  deps.finished(false);
  return run;
}

/** Sends again only the files that failed in the last run, into the same destination. */
export function retryFailed(store: UploadStore, deps: UploadDeps): Promise<UploadRun> | null {
  const run = store.getSnapshot();
  if (!run || run.status !== 'failed' || run.failures.length === 0) return null;
  const byStudy = new Map<string, RunFailure[]>();
  for (const f of run.failures) {
    const list = byStudy.get(f.studyUid);
    if (list) list.push(f);
    else byStudy.set(f.studyUid, [f]);
  }
  const studies: UploadStudyInput[] = run.studies
    .filter((s) => byStudy.has(s.studyUid))
    .map((s) => {
      const failed = byStudy.get(s.studyUid)!;
      return {
        ...s,
        files: failed.map((f) => f.file),
        sopInstanceUids: failed.map((f) => f.sopInstanceUid ?? ''),
      };
    });
  return runUpload(
    store,
    { namespaceId: run.namespaceId, destinationName: run.destinationName },
    studies,
    deps,
    run.studies,
  );
}
