import { describe, expect, it } from 'vitest';
import { RunTally } from './run-tally';
import type { RunStudy } from './upload-store';

const study = (studyUid: string, fileCount: number): RunStudy => ({
  studyUid,
  patientName: 'X',
  patientId: studyUid,
  description: '',
  fileCount,
  stored: 0,
  duplicates: 0,
  failed: 0,
});

const head = { id: 1, namespaceId: 'ns', destinationName: 'Emergency', totalBytes: 30, fileCount: 3 };

describe('RunTally', () => {
  it('counts answers per study and keeps the record of a study that did not change', () => {
    const tally = new RunTally(head, [study('A', 2), study('B', 1)]);
    const before = tally.snapshot('uploading');
    tally.stored('A', false);
    tally.addBytes(10);
    const after = tally.snapshot('uploading');
    expect(after.studies[0]).toMatchObject({ stored: 1, duplicates: 0 });
    expect(after.studies[0]).not.toBe(before.studies[0]);
    // B did not change: the same object, so its row need not render again.
    expect(after.studies[1]).toBe(before.studies[1]);
    expect(after).toMatchObject({ uploadedBytes: 10, answered: 1, fileCount: 3 });
    // A published snapshot does not change afterwards.
    tally.stored('A', true);
    expect(after.studies[0]).toMatchObject({ stored: 1, duplicates: 0 });
  });

  it('lists failures in order of failing and counts them on their study', () => {
    const tally = new RunTally(head, [study('A', 2), study('B', 1)]);
    const file = new File([new Uint8Array(1)], 'b1');
    tally.failed({ file, studyUid: 'B', name: 'b1', code: 'INVALID_DICOM' });
    const run = tally.snapshot('failed');
    expect(run.failures.map((f) => f.name)).toEqual(['b1']);
    expect(run.studies[1]).toMatchObject({ failed: 1 });
    expect(tally.failureCount).toBe(1);
    expect(run).toMatchObject({ status: 'failed', answered: 1 });
  });
});
