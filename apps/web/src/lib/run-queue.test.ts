import { describe, expect, it } from 'vitest';
import { isUploadCandidate, runQueue } from './run-queue';

describe('runQueue', () => {
  it('never runs more than the limit at once and runs every item even when some fail', async () => {
    let running = 0;
    let peak = 0;
    const done: number[] = [];
    await runQueue([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5 * (n % 3)));
      running--;
      done.push(n);
    });
    expect(peak).toBe(3);
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('handles an empty list', async () => {
    await expect(runQueue([], 3, () => Promise.resolve())).resolves.toBeUndefined();
  });
});

describe('isUploadCandidate', () => {
  it('skips DICOMDIR and hidden files', () => {
    expect(isUploadCandidate({ name: 'IM0001' })).toBe(true);
    expect(isUploadCandidate({ name: 'DICOMDIR' })).toBe(false);
    expect(isUploadCandidate({ name: '.DS_Store' })).toBe(false);
  });
});
