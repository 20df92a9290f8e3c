import { WEBHOOK_JOB, WEBHOOK_SLOTS } from '../../jobs/job-kinds.js';
import type { JobHandler } from '../../jobs/job-runner.js';
import type { WebhookService } from './webhook.service.js';

/** Makes one attempt of one webhook delivery, retried with a doubling delay; then marks it failed. */
export function webhookDeliveryJob(
  webhooks: Pick<WebhookService, 'deliver' | 'giveUp' | 'retry'>,
): JobHandler<{ delivery: string }> {
  const { maxAttempts, retryMs } = webhooks.retry;
  return {
    job: WEBHOOK_JOB,
    maxAttempts,
    backoffMs: (attempt) => retryMs * 2 ** (attempt - 1),
    concurrency: WEBHOOK_SLOTS,
    run: ({ delivery }) => webhooks.deliver(delivery),
    onFailed: ({ delivery }, error) => webhooks.giveUp(delivery, error),
  };
}
