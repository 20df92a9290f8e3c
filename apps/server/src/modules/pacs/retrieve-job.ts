import { DESTINATION_RETRIEVE_JOB } from '../../jobs/job-kinds.js';
import type { JobHandler } from '../../jobs/job-runner.js';
import type { DestinationSearchesRepository } from './destination-searches.repository.js';
import type { DestinationsRepository } from './destinations.repository.js';
import { studyEvent, type AuditService } from '../../audit/audit.service.js';
import { auditWorkEnd, reasonOf, startDestinationWork, statusText } from './destination-job.js';
import type { CallingAeOf } from './destination-job.js';
import type { MoveProgress } from '../../dimse/client/index.js';
import type { PacsClient } from './pacs-client.js';

interface Deps {
  searches: DestinationSearchesRepository;
  destinations: DestinationsRepository;
  pacs: PacsClient;
  audit: AuditService;
  /** The AE title the destination is called as: also the C-MOVE destination, where our listener receives the study. */
  callingAes: CallingAeOf;
  now?: () => number;
}

/** Progress from pending C-MOVE responses is written at most this often. */
const PROGRESS_EVERY_MS = 500;

/**
 * Runs a retrieve: one C-MOVE of the study to the AE title we called the destination as. The instances arrive on our listener, which
 * finds this retrieve (dimse/scp.ts → DeliveryRouter) and ingests them into the search's group,
 * where the study stays out of study/list while the move fills it. The retrieve ends with the final
 * C-MOVE response (not a quiet timer): done when every sub-operation completed, and the study is
 * listed; failed with the reason otherwise, and what arrived is listed as an incomplete study,
 * which a later retrieve of it completes (instances already stored are not stored twice). Not
 * retried by the runner after a failure: the user sees why and retrieves again. A runner that died
 * mid-move leaves the retrieve running, and the job's next claim moves the study again; its counts are
 * the study's distinct instances, so what both moves sent is counted once.
 */
export function destinationRetrieveJob(deps: Deps): JobHandler<{ retrieve: string; destination: string }> {
  const now = deps.now ?? Date.now;
  return {
    job: DESTINATION_RETRIEVE_JOB,
    maxAttempts: 1,
    concurrency: 4,
    async run({ retrieve: uuid }, _job, signal) {
      const started = await startDestinationWork(
        await deps.searches.findRetrieve(uuid),
        deps.destinations,
        deps.callingAes,
      );
      if (!started) return;
      const retrieve = started.row;
      const finish = async (
        state: 'done' | 'failed',
        reason: string | null,
        detail: Record<string, unknown>,
      ) => {
        const ended = await deps.searches.endRetrieve(uuid, { state, reason }, now());
        if (!ended) return;
        const outcome = state === 'done' ? 'SUCCESS' : 'FAILURE';
        const about = { retrieve: uuid, study_uid: retrieve.study_uid, namespace_id: retrieve.namespace_id };
        await auditWorkEnd(deps.audit, retrieve, 'RETRIEVE_END', outcome, { ...about, ...detail });
        // The study's own history says how the retrieve that filled it ended.
        if (ended.studyUuid) {
          const destinationName = 'gone' in started ? null : started.destination.name;
          await deps.audit.record(
            studyEvent(
              { userId: retrieve.user_id },
              { uuid: ended.studyUuid, account_id: retrieve.account_id },
              'RETRIEVE_END',
              { ...about, destination_name: destinationName, reason, ...detail },
              outcome,
            ),
          );
        }
      };
      if ('gone' in started) return finish('failed', 'the destination was deleted', {});
      let lastWrite = 0;
      // The final response may leave its counts out (Orthanc's failure does): the last pending ones stand.
      let latest: MoveProgress = {};
      let messageIdWrite: Promise<void> | undefined;
      let result;
      try {
        result = await deps.pacs.moveStudy(started.peer, retrieve.study_uid, {
          signal,
          // Recorded so arriving instances are matched to this move by their Move Originator Message ID.
          onRequest: (messageId) => {
            messageIdWrite = deps.searches.setMoveMessageId(uuid, messageId, now()).catch(() => undefined);
          },
          onProgress: (progress) => {
            latest = progress;
            if (now() - lastWrite < PROGRESS_EVERY_MS) return;
            lastWrite = now();
            void deps.searches.setProgress(uuid, progress, lastWrite).catch(() => undefined);
          },
        });
      } catch (error) {
        // This runner lost the job: another one moves the study again, and ends the retrieve.
        if (signal.aborted) throw error;
        const reason = reasonOf(error);
        return finish('failed', reason, { reason });
      } finally {
        await messageIdWrite;
      }
      // Completed is what the study holds, each instance once (a PACS may report fewer or none): a
      // run taken over after a crash moved the study again, so neither the PACS's sub-operation
      // counts nor the arrivals may be added up across runs.
      const completed = await deps.searches.instancesInStudy(retrieve.namespace_id, retrieve.study_uid);
      const failed = result.failed ?? latest.failed ?? 0;
      await deps.searches.setProgress(uuid, { completed, failed, remaining: result.remaining ?? 0 }, now());
      const counts = { completed, failed, warning: result.warning ?? latest.warning };
      if (result.category === 'success' || (result.category === 'warning' && !failed)) {
        return finish('done', null, counts);
      }
      const status = statusText(result.status);
      const said = `status ${status}${result.errorComment ? `: ${result.errorComment}` : ''}`;
      // Orthanc, for one, ends a move whose sub-operation failed with Cxxx and counts no failure.
      const reason = failed
        ? `${failed} instance(s) could not be retrieved (${said})`
        : completed
          ? `the destination ended the retrieve part-way, after ${completed} instance(s) (${said})`
          : `the destination refused the retrieve (${said})`;
      return finish('failed', reason, { ...counts, status });
    },
  };
}
