import { Readable } from 'node:stream';
import { PUSH_ASSOCIATIONS, PUSH_JOB } from '../../jobs/job-kinds.js';
import type { JobHandler } from '../../jobs/job-runner.js';
import type { DestinationsRepository } from './destinations.repository.js';
import type { PushInstanceRow, StudyPushesRepository, StudyPushRow } from './study-pushes.repository.js';
import type { AuditService } from '../../audit/audit.service.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { peerOf } from './destination-job.js';
import type { CallingAeOf } from './destination-job.js';
import type { PacsClient } from './pacs-client.js';

interface Deps {
  pushes: StudyPushesRepository;
  destinations: DestinationsRepository;
  blobs: BlobStore;
  pacs: PacsClient;
  /** The AE title each destination is called as. */
  callingAes: CallingAeOf;
  audit: AuditService;
  /** Passes over the instances not yet stored before the attempt ends P or F (default 4). */
  maxAttempts?: number;
  /** Delay before pass n+1 (default 5 s, doubling). */
  backoffMs?: (attempt: number) => number;
  /** Told of each attempt's end (webhooks), after it is recorded. */
  onFinished?: (push: StudyPushRow, status: 'S' | 'P' | 'F') => Promise<void>;
  now?: () => number;
}

/**
 * Runs one push attempt: every instance still pending is sent over PUSH_ASSOCIATIONS associations
 * (the stored bytes streamed as they are, or transcoded by the client when the PACS refuses their
 * syntax), and each outcome is written as it comes, so a pass that dies (association lost, PACS
 * killed, server restarted) is resumed by the next pass with only what is not stored yet. An
 * instance the PACS refuses as it is (A9xx, Cxxx) fails for good; one not stored for a reason that
 * may pass (A7xx, association lost, unreachable) is tried again with back-off. The attempt ends S
 * (all stored), P (some stored, the rest failed or still refused after the last pass) or F (none
 * stored), with the reason.
 */
export function studyPushJob(deps: Deps): JobHandler<{ push: string; destination: string }> {
  const now = deps.now ?? Date.now;
  const maxAttempts = deps.maxAttempts ?? 4;
  const finish = async (push: StudyPushRow, reason: string | null) => {
    const counts = await deps.pushes.counts(push.uuid);
    const status = counts.stored === 0 ? 'F' : counts.failed + counts.pending > 0 ? 'P' : 'S';
    await deps.pushes.setStatus(push, status, status === 'S' ? null : reason, now());
    await deps.audit.record({
      userId: push.user_id,
      accountId: push.account_id,
      action: 'PUSH_END',
      objectType: 'study',
      objectId: push.study_uuid,
      outcome: status === 'S' ? 'SUCCESS' : 'FAILURE',
      detail: { push: push.uuid, destination_id: push.destination_id, status, reason, ...counts },
    });
    await deps.onFinished?.(push, status);
  };
  return {
    job: PUSH_JOB,
    maxAttempts,
    ...(deps.backoffMs ? { backoffMs: deps.backoffMs } : {}),
    concurrency: 4,
    async run({ push: uuid }, job, signal) {
      const push = await deps.pushes.find(uuid);
      if (!push || !['I', 'N'].includes(push.status)) return;
      const destination = await deps.destinations.find(push.destination_id);
      if (!destination) return finish(push, 'the destination was deleted');
      await deps.pushes.setStatus(push, 'N', null, now());
      const pending = await deps.pushes.pending(uuid);
      const peer = await peerOf(destination, deps.callingAes);
      const reasons: string[] = [];
      const lanes: PushInstanceRow[][] = Array.from({ length: PUSH_ASSOCIATIONS }, () => []);
      pending.forEach((instance, i) => lanes[i % PUSH_ASSOCIATIONS]!.push(instance));
      await Promise.all(
        lanes
          .filter((lane) => lane.length)
          .map(async (lane) => {
            const sources = lane.map((instance) => ({
              sopClassUid: instance.sop_class_uid,
              sopInstanceUid: instance.sop_instance_uid,
              transferSyntax: instance.transfer_syntax,
              open: () => Readable.from(deps.blobs.readStream(instance.blob_key)),
            }));
            try {
              await deps.pacs.storeInstances(
                peer,
                sources,
                async (outcome) => {
                  const stored = outcome.category === 'success' || outcome.category === 'warning';
                  if (!stored && outcome.reason) reasons.push(outcome.reason);
                  await deps.pushes.recordInstance(uuid, outcome.sopInstanceUid, {
                    state: stored ? 'stored' : outcome.category === 'retry' ? 'pending' : 'failed',
                    reason: stored ? null : (outcome.reason ?? `status ${outcome.status}`),
                  });
                },
                signal,
              );
            } catch (error) {
              reasons.push(error instanceof Error ? error.message : String(error));
            }
          }),
      );
      if (signal.aborted) return;
      const counts = await deps.pushes.counts(uuid);
      const reason = reasons[0] ?? null;
      if (counts.pending > 0 && job.attempts < maxAttempts) {
        // Back to the queue: the runner retries after its back-off, with only the pending instances.
        throw new Error(`${counts.pending} instance(s) not stored yet: ${reason ?? 'unknown reason'}`);
      }
      await finish(push, counts.pending > 0 ? `${counts.pending} instance(s) not stored: ${reason}` : reason);
    },
    async onFailed({ push: uuid }, error) {
      const push = await deps.pushes.find(uuid);
      if (push && ['I', 'N'].includes(push.status)) await finish(push, error);
    },
  };
}
