import { ATNA_SEND_JOB } from '../../jobs/job-kinds.js';
import type { JobHandler } from '../../jobs/job-runner.js';
import type { AtnaSender } from './atna-sender.js';

/** The longest wait between two tries while the collector is down. */
export const ATNA_RETRY_CAP_MS = 60_000;

/**
 * Drains the audit queue to the collector (one such job runs at a time across every process, by its
 * concurrency key). A collector that does not answer fails the attempt, retried after `retryMs`,
 * doubling up to a minute, for as long as it takes: the job never gives up, the queue keeps every
 * event meanwhile.
 */
export function atnaSendJob(
  sender: Pick<AtnaSender, 'drain'>,
  retryMs: number,
): JobHandler<Record<string, never>> {
  return {
    job: ATNA_SEND_JOB,
    maxAttempts: Number.MAX_SAFE_INTEGER,
    backoffMs: (attempt) => Math.min(retryMs * 2 ** Math.min(attempt - 1, 30), ATNA_RETRY_CAP_MS),
    run: async (_payload, _job, signal) => {
      await sender.drain(signal);
    },
  };
}
