import type { JobQueue } from '../../jobs/job-queue.js';
import { ATNA_SEND_JOB } from '../../jobs/job-kinds.js';
import type { PeriodicTask } from '../../jobs/periodic.js';
import { startPeriodic } from '../../jobs/periodic.js';
import type { AtnaOutboxRepository } from './atna-outbox.repository.js';

/** How often each process looks for queued audit events with no sender job to send them. */
export const ATNA_TICK_MS = 1_000;

/**
 * Each process, every tick: when events wait and no sender job is queued or running, queues one
 * (two processes doing so at once queue two; the concurrency key runs them one after the other and
 * the second finds little or nothing). Says once in the log when the queue passes `alertAt`
 * events, and once when it is back under.
 */
export function startAtnaTimer(
  deps: {
    outbox: Pick<AtnaOutboxRepository, 'backlog' | 'senderPending'>;
    queue: Pick<JobQueue, 'enqueue' | 'kick'>;
    alertAt: number;
  },
  log: (line: string) => void,
  tickMs = ATNA_TICK_MS,
): PeriodicTask {
  let alerted = false;
  return startPeriodic(
    'ATNA queue',
    async () => {
      const { count } = await deps.outbox.backlog();
      if (count >= deps.alertAt && !alerted) {
        alerted = true;
        log(`ATNA: ${count} audit messages wait for the syslog collector (alert threshold ${deps.alertAt})`);
      } else if (count < deps.alertAt && alerted) {
        alerted = false;
        log(`ATNA: the audit message queue is back under ${deps.alertAt}`);
      }
      if (!count || (await deps.outbox.senderPending())) return;
      await deps.queue.enqueue(ATNA_SEND_JOB, {});
      deps.queue.kick();
    },
    log,
    tickMs,
  );
}
