import type { UploadRunError } from './upload-errors';
import type { RunFailure, RunStatus, RunStudy, UploadRun } from './upload-store';

export type RunHead = Pick<UploadRun, 'id' | 'namespaceId' | 'destinationName' | 'totalBytes' | 'fileCount'>;

/**
 * The live counts of a running upload. Each answered file changes them in constant time (the
 * study is found through a map and only its own record is replaced); `snapshot` copies them into
 * a new UploadRun for the page, which happens a few times a second, not per file. A study record
 * keeps its identity while nothing in it changes, so its row need not render again.
 */
export class RunTally {
  private readonly studies: RunStudy[];
  private readonly positions = new Map<string, number>();
  private readonly failures: RunFailure[] = [];
  private uploadedBytes = 0;
  private answered = 0;

  constructor(
    private readonly head: RunHead,
    studies: readonly RunStudy[],
  ) {
    this.studies = [...studies];
    this.studies.forEach((s, i) => this.positions.set(s.studyUid, i));
  }

  /** Bytes the server newly holds (a whole small file, or one more chunk of a large one). */
  addBytes(bytes: number): void {
    this.uploadedBytes += bytes;
  }

  stored(studyUid: string, duplicate: boolean): void {
    this.answered++;
    this.patch(studyUid, (s) =>
      duplicate ? { ...s, duplicates: s.duplicates + 1 } : { ...s, stored: s.stored + 1 },
    );
  }

  failed(failure: RunFailure): void {
    this.answered++;
    this.failures.push(failure);
    this.patch(failure.studyUid, (s) => ({ ...s, failed: s.failed + 1 }));
  }

  get failureCount(): number {
    return this.failures.length;
  }

  snapshot(status: RunStatus, error?: UploadRunError): UploadRun {
    return {
      ...this.head,
      status,
      ...(error ? { error } : {}),
      uploadedBytes: this.uploadedBytes,
      answered: this.answered,
      studies: this.studies.slice(),
      failures: this.failures.slice(),
    };
  }

  private patch(studyUid: string, change: (s: RunStudy) => RunStudy): void {
    const at = this.positions.get(studyUid);
    if (at !== undefined) this.studies[at] = change(this.studies[at]!);
  }
}
