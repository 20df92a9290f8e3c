/** How one job ended: `value` when it succeeded, else the last error (or the abort). */
export type JobOutcome<T, R> =
  | { item: T; index: number; ok: true; value: R; attempts: number }
  | { item: T; index: number; ok: false; error: unknown; attempts: number; aborted: boolean };

export interface JobQueueOptions<T = unknown, R = unknown> {
  /** Jobs in flight at once. */
  concurrency: number;
  /** Extra attempts after the first failure (so `retries + 1` attempts at most). */
  retries: number;
  /** Wait before retry n (1-based): backoffMs × 2^(n-1). */
  backoffMs: number;
  /** Cancels waiting jobs and is passed to running ones. */
  signal?: AbortSignal;
  /** Stop everything on the first job that fails for good. */
  abortOnFailure?: boolean;
  /** Whether an error is worth another attempt; defaults to always. */
  retryable?: (error: unknown) => boolean;
  /** Called as each job ends, in order of ending. */
  onSettled?: (outcome: JobOutcome<T, R>) => void;
}

export class JobAbortedError extends Error {
  constructor() {
    super('JOB_FAILED');
    this.name = 'AbortError';
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new JobAbortedError());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new JobAbortedError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs `run` over `items` with bounded concurrency, retrying each job with exponential backoff.
 * Never rejects: every item gets an outcome, in item order. Once aborted (by the caller's signal,
 * or by a failure with `abortOnFailure`), jobs not yet finished end as aborted.
 */
export async function runJobs<T, R>(
  items: readonly T[],
  options: JobQueueOptions<T, R>,
  run: (item: T, signal: AbortSignal, attempt: number) => Promise<R>,
): Promise<JobOutcome<T, R>[]> {
  const inner = new AbortController();
  const stop = () => inner.abort();
  if (options.signal?.aborted) inner.abort();
  options.signal?.addEventListener('abort', stop, { once: true });
  const signal = inner.signal;
  const outcomes = new Array<JobOutcome<T, R>>(items.length);
  const retryable = options.retryable ?? (() => true);

  const runOne = async (item: T, index: number): Promise<JobOutcome<T, R>> => {
    let attempts = 0;
    for (;;) {
      if (signal.aborted) {
        return { item, index, ok: false, error: new JobAbortedError(), attempts, aborted: true };
      }
      attempts++;
      try {
        const value = await run(item, signal, attempts);
        return { item, index, ok: true, value, attempts };
      } catch (error) {
        if (signal.aborted) return { item, index, ok: false, error, attempts, aborted: true };
        if (attempts > options.retries || !retryable(error)) {
          return { item, index, ok: false, error, attempts, aborted: false };
        }
        try {
          await sleep(options.backoffMs * 2 ** (attempts - 1), signal);
        } catch {
          return { item, index, ok: false, error, attempts, aborted: true };
        }
      }
    }
  };

  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      const outcome = await runOne(items[index] as T, index);
      outcomes[index] = outcome;
      if (!outcome.ok && !outcome.aborted && options.abortOnFailure) inner.abort();
      options.onSettled?.(outcome);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(options.concurrency, items.length) }, lane));
  } finally {
    options.signal?.removeEventListener('abort', stop);
  }
  return outcomes;
}
