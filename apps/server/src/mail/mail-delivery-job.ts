import { MAIL_JOB } from '../jobs/job-kinds.js';
import type { JobHandler } from '../jobs/job-runner.js';
import type { Mailer } from './mailer.js';

/**
 * Delivers one outbox row by SMTP, retried with a doubling delay capped at an hour; a row that runs
 * out of attempts is marked failed.
 */
export function mailDeliveryJob(
  mailer: Pick<Mailer, 'deliver' | 'giveUp' | 'retry'>,
): JobHandler<{ mail: number }> {
  const { maxAttempts, retryMs } = mailer.retry;
  return {
    job: MAIL_JOB,
    maxAttempts,
    backoffMs: (attempt) => Math.min(retryMs * 2 ** (attempt - 1), 60 * 60_000),
    run: ({ mail }) => mailer.deliver(mail),
    onFailed: ({ mail }, error) => mailer.giveUp(mail, error),
  };
}
