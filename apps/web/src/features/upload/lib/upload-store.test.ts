import { afterEach, describe, expect, it, vi } from 'vitest';
import { createUploadStore, type UploadRun } from './upload-store';

const run = (uploadedBytes: number, status: UploadRun['status'] = 'uploading'): UploadRun => ({
  id: 1,
  status,
  namespaceId: 'ns',
  destinationName: 'Emergency',
  totalBytes: 100,
  uploadedBytes,
  answered: 0,
  fileCount: 10,
  studies: [],
  failures: [],
});

describe('createUploadStore', () => {
  afterEach(() => vi.useRealTimers());

  it('publishes many changes as one, at most once per interval, with the latest snapshot', () => {
    vi.useFakeTimers();
    const store = createUploadStore(200);
    const seen: number[] = [];
    store.subscribe(() => seen.push(store.getSnapshot()!.uploadedBytes));
    store.set(run(0));
    const built = vi.fn((bytes: number) => run(bytes));
    for (let bytes = 1; bytes <= 50; bytes++) store.changed(() => built(bytes));
    // Nothing repaints before the interval, and no snapshot is built for the changes in between.
    expect(store.getSnapshot()!.uploadedBytes).toBe(0);
    vi.advanceTimersByTime(199);
    expect(seen).toEqual([0]);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual([0, 50]);
    expect(built).toHaveBeenCalledTimes(1);
    store.changed(() => run(60));
    vi.advanceTimersByTime(200);
    expect(seen).toEqual([0, 50, 60]);
  });

  it('set publishes at once and drops a change still waiting', () => {
    vi.useFakeTimers();
    const store = createUploadStore(200);
    const seen: string[] = [];
    store.subscribe(() => seen.push(store.getSnapshot()!.status));
    store.set(run(0));
    store.changed(() => run(10));
    store.set(run(100, 'succeeded'));
    vi.advanceTimersByTime(1000);
    expect(seen).toEqual(['uploading', 'succeeded']);
    expect(store.getSnapshot()!.uploadedBytes).toBe(100);
  });
});
