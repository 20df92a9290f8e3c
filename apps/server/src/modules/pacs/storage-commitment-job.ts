import { STORAGE_COMMITMENT_EXPIRY_JOB } from '../../jobs/job-kinds.js';
import type { JobHandler } from '../../jobs/job-runner.js';
import type { StorageCommitmentService } from './storage-commitment.service.js';

/**
 * At a storage commitment's deadline: if the PACS has not reported yet, its push ends F with that
 * reason (StorageCommitmentService.expire). Durable, so a restart while waiting keeps the deadline.
 */
export function storageCommitmentExpiryJob(deps: {
  commitments: Pick<StorageCommitmentService, 'expire'>;
}): JobHandler<{ transaction: string }> {
  return {
    job: STORAGE_COMMITMENT_EXPIRY_JOB,
    maxAttempts: 5,
    concurrency: 2,
    async run({ transaction }) {
      await deps.commitments.expire(transaction);
    },
  };
}
