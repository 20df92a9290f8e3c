import { SEND_JOB } from '../../jobs/job-kinds.js';
import type { JobHandler } from '../../jobs/job-runner.js';
import type { SendService } from './send.service.js';

/** Delivers one study send; a send that runs out of attempts is marked failed and audited. */
export function studySendJob(sends: Pick<SendService, 'deliver' | 'giveUp'>): JobHandler<{ send: string }> {
  return {
    job: SEND_JOB,
    maxAttempts: 5,
    run: ({ send }) => sends.deliver(send),
    onFailed: ({ send }, error) => sends.giveUp(send, error),
  };
}
