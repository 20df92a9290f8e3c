import { describe, expect, it, vi } from 'vitest';
import { retryFailed, runUpload, type UploadDeps } from './upload-runner';
import { createUploadStore, studyOutcome } from './upload-store';

const file = (name: string, size = 10) => new File([new Uint8Array(size)], name);

describe('runUpload', () => {
  const target = { namespaceId: 'ns1', destinationName: 'Emergency' };

  it('tracks bytes, marks studies New or Duplicate, lists failures and retries only those', async () => {
    const store = createUploadStore();
    const answers: Record<string, { duplicate: boolean } | 'fail'> = {
      a1: { duplicate: false },
      a2: { duplicate: true },
      b1: { duplicate: true },
      b2: { duplicate: true },
      c1: 'fail',
    };
    const seenProgress: number[] = [];
    store.subscribe(() => seenProgress.push(store.getSnapshot()!.uploadedBytes));
    const finished = vi.fn();
    const deps: UploadDeps = {
      send: async (ns, f) => {
        await Promise.resolve();
        expect(ns).toBe('ns1');
        const answer = answers[f.name];
        if (answer === 'fail') throw new Error('INVALID_DICOM');
        return answer!;
      },
      codeOf: (e) => (e as Error).message,
      retryable: () => false,
      finished,
      backoffMs: 0,
    };
    const study = (uid: string, files: File[]) => ({
      studyUid: uid,
      patientName: 'X',
      patientId: uid,
      description: '',
      files,
    });
    const run = await runUpload(
      store,
      target,
      [study('A', [file('a1'), file('a2')]), study('B', [file('b1'), file('b2')]), study('C', [file('c1')])],
      deps,
    );
    expect(run.status).toBe('failed');
    expect(run.totalBytes).toBe(50);
    expect(run.uploadedBytes).toBe(40);
    expect(Math.max(...seenProgress)).toBe(40);
    expect(run.studies.map(studyOutcome)).toEqual(['New', 'Duplicate', 'Failed']);
    expect(run.failures.map((f) => [f.name, f.code])).toEqual([['c1', 'INVALID_DICOM']]);
    expect(finished).toHaveBeenLastCalledWith(false);

    answers['c1'] = { duplicate: false };
    const sent: string[] = [];
    const again = await retryFailed(store, {
      ...deps,
      send: async (ns, f, signal, extra) => {
        sent.push(f.name);
        return deps.send(ns, f, signal, extra);
      },
    });
    expect(sent).toEqual(['c1']);
    expect(again?.status).toBe('succeeded');
    expect(again?.studies.map(studyOutcome)).toEqual(['New', 'Duplicate', 'New']);
    expect(finished).toHaveBeenLastCalledWith(true);
  });

  it('cancels: files not sent end as JOB_FAILED and the run fails', async () => {
    const store = createUploadStore();
    const deps: UploadDeps = {
      send: (_ns, _f, signal) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError'))),
        ),
      codeOf: () => 'X',
      retryable: () => true,
      finished: () => undefined,
      backoffMs: 0,
    };
    const files = [file('1'), file('2'), file('3'), file('4')];
    const promise = runUpload(
      store,
      target,
      [{ studyUid: 'A', patientName: '', patientId: '', description: '', files }],
      deps,
    );
    expect(store.getSnapshot()?.status).toBe('uploading');
    store.cancel();
    const run = await promise;
    expect(run.status).toBe('failed');
    expect(run.failures.map((f) => f.code)).toEqual(['JOB_FAILED', 'JOB_FAILED', 'JOB_FAILED', 'JOB_FAILED']);
  });
});
