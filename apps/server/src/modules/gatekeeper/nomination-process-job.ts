import { NOMINATION_PROCESS_JOB } from '../../jobs/job-kinds.js';
import type { JobHandler } from '../../jobs/job-runner.js';
import type { NominationProcessService } from './nomination-process.service.js';

/**
 * Finishes a nomination's processing that the accepting call did not (the server stopped
 * half-way); when even this fails for good, the nomination goes back to Nominations, unlocked.
 */
export function nominationProcessJob(
  service: Pick<NominationProcessService, 'finish' | 'giveUp'>,
): JobHandler<{ nomination: string }> {
  return {
    job: NOMINATION_PROCESS_JOB,
    maxAttempts: 3,
    async run({ nomination }) {
      await service.finish(nomination);
    },
    async onFailed({ nomination }) {
      await service.giveUp(nomination);
    },
  };
}
