import { describe, expect, it } from 'vitest';
import { runJobs } from './job-queue';

const tick = (ms = 1) => new Promise((r) => setTimeout(r, ms));

describe('runJobs', () => {
  it('keeps at most `concurrency` jobs in flight and answers every item in order', async () => {
    let running = 0;
    let peak = 0;
    const outcomes = await runJobs(
      [1, 2, 3, 4, 5, 6, 7],
      { concurrency: 3, retries: 0, backoffMs: 0 },
      async (n) => {
        running++;
        peak = Math.max(peak, running);
        await tick(2 * (n % 3));
        running--;
        return n * 10;
      },
    );
    expect(peak).toBe(3);
    expect(outcomes.map((o) => (o.ok ? o.value : null))).toEqual([10, 20, 30, 40, 50, 60, 70]);
  });

  it('retries a failing job up to the retry count with growing waits', async () => {
    const calls: number[] = [];
    const started = Date.now();
    const outcomes = await runJobs(
      ['flaky', 'dead'],
      { concurrency: 2, retries: 3, backoffMs: 5 },
      async (item, _s, attempt) => {
        await Promise.resolve();
        calls.push(attempt);
        if (item === 'flaky' && attempt < 3) throw new Error('net');
        if (item === 'dead') throw new Error('down');
        return item;
      },
    );
    expect(outcomes[0]).toMatchObject({ ok: true, attempts: 3 });
    expect(outcomes[1]).toMatchObject({ ok: false, attempts: 4, aborted: false });
    // dead waited 5 + 10 + 20 ms between its four attempts.
    expect(Date.now() - started).toBeGreaterThanOrEqual(30);
  });

  it('does not retry errors that are not retryable', async () => {
    let attempts = 0;
    const [outcome] = await runJobs(
      ['bad'],
      { concurrency: 1, retries: 3, backoffMs: 1, retryable: () => false },
      async () => {
        await Promise.resolve();
        attempts++;
        throw new Error('INVALID_DICOM');
      },
    );
    expect(attempts).toBe(1);
    expect(outcome).toMatchObject({ ok: false, aborted: false });
  });

  it('aborts running and waiting jobs on cancel and starts no new ones', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const promise = runJobs(
      [1, 2, 3, 4, 5, 6],
      { concurrency: 2, retries: 3, backoffMs: 1, signal: controller.signal },
      (n, signal) => {
        started.push(n);
        return new Promise<number>((resolve, reject) => {
          const timer = setTimeout(() => resolve(n), 50);
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(new DOMException('Aborted', 'AbortError'));
          });
        });
      },
    );
    await tick(5);
    controller.abort();
    const outcomes = await promise;
    expect(started).toEqual([1, 2]);
    expect(outcomes.every((o) => !o.ok && o.aborted)).toBe(true);
  });

  it('can stop everything on the first job that fails for good', async () => {
    const outcomes = await runJobs(
      [1, 2, 3, 4],
      { concurrency: 1, retries: 0, backoffMs: 0, abortOnFailure: true },
      async (n) => {
        await Promise.resolve();
        if (n === 2) throw new Error('bad');
        return n;
      },
    );
    expect(outcomes.map((o) => (o.ok ? 'ok' : o.aborted ? 'aborted' : 'failed'))).toEqual([
      'ok',
      'failed',
      'aborted',
      'aborted',
    ]);
  });
});
