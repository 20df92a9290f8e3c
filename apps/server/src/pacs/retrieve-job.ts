import { DESTINATION_RETRIEVE_JOB } from '../jobs/job-kinds.js';
import type { JobHandler } from '../jobs/job-runner.js';
import type { DestinationSearchesRepository } from '../repositories/destination-searches.repository.js';
import type { DestinationsRepository } from '../repositories/destinations.repository.js';
import type { AuditService } from '../services/audit.service.js';
import type { PacsClient } from './pacs-client.js';

interface Deps {
  searches: DestinationSearchesRepository;
  destinations: DestinationsRepository;
  pacs: PacsClient;
  audit: AuditService;
  /** Our AE title: the C-MOVE destination, where our listener receives the study. */
  ourAeTitle: string;
  now?: () => number;
}

/** Progress from pending C-MOVE responses is written at most this often. */
const PROGRESS_EVERY_MS = 500;

/**
 * Runs a retrieve: one C-MOVE of the study to our AE. The instances arrive on our listener, which
 * finds this retrieve (dimse/scp.ts → DeliveryRouter) and ingests them into the search's group;
 * the retrieve ends with the final C-MOVE response (not a quiet timer): done when every
 * sub-operation completed, failed with the reason otherwise. Not retried by the runner: a retrieve
 * the user starts again is a new one, and instances already stored are not stored twice.
 */
export function destinationRetrieveJob(deps: Deps): JobHandler<{ retrieve: string; destination: string }> {
  const now = deps.now ?? Date.now;
  return {
    job: DESTINATION_RETRIEVE_JOB,
    maxAttempts: 1,
    concurrency: 4,
    async run({ retrieve: uuid }, _job, signal) {
      const retrieve = await deps.searches.findRetrieve(uuid);
      if (!retrieve || retrieve.state !== 'running') return;
      const finish = async (
        state: 'done' | 'failed',
        reason: string | null,
        detail: Record<string, unknown>,
      ) => {
        await deps.searches.endRetrieve(uuid, { state, reason }, now());
        await deps.audit.record({
          userId: retrieve.user_id,
          accountId: retrieve.account_id,
          action: 'RETRIEVE_END',
          objectType: 'destination',
          objectId: retrieve.destination_id,
          outcome: state === 'done' ? 'SUCCESS' : 'FAILURE',
          detail: {
            retrieve: uuid,
            study_uid: retrieve.study_uid,
            namespace_id: retrieve.namespace_id,
            ...detail,
          },
        });
      };
      const destination = await deps.destinations.find(retrieve.destination_id);
      if (!destination) return finish('failed', 'the destination was deleted', {});
      let lastWrite = 0;
      let messageIdWrite: Promise<void> | undefined;
      let result;
      try {
        result = await deps.pacs.moveStudy(
          { aeTitle: destination.aetitle, host: destination.address, port: Number(destination.port) },
          retrieve.study_uid,
          deps.ourAeTitle,
          {
            signal,
            // Recorded so arriving instances are matched to this move by their Move Originator Message ID.
            onRequest: (messageId) => {
              messageIdWrite = deps.searches.setMoveMessageId(uuid, messageId, now()).catch(() => undefined);
            },
            onProgress: (progress) => {
              if (now() - lastWrite < PROGRESS_EVERY_MS) return;
              lastWrite = now();
              void deps.searches.setProgress(uuid, progress, lastWrite).catch(() => undefined);
            },
          },
        );
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return finish('failed', reason, { reason });
      } finally {
        await messageIdWrite;
      }
      await deps.searches.setProgress(
        uuid,
        { completed: result.completed, failed: result.failed, remaining: result.remaining ?? 0 },
        now(),
      );
      const counts = { completed: result.completed, failed: result.failed, warning: result.warning };
      if (result.category === 'success' || (result.category === 'warning' && !result.failed)) {
        return finish('done', null, counts);
      }
      const status = result.status.toString(16).padStart(4, '0').toUpperCase();
      const reason = result.failed
        ? `${result.failed} instance(s) could not be retrieved (status ${status}${result.errorComment ? `: ${result.errorComment}` : ''})`
        : `the destination refused the retrieve (status ${status}${result.errorComment ? `: ${result.errorComment}` : ''})`;
      return finish('failed', reason, { ...counts, status });
    },
  };
}
