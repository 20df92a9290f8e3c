import { PUSH_ASSOCIATIONS, PUSH_JOB, STORAGE_COMMITMENT_EXPIRY_JOB } from '../../jobs/job-kinds.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { newUid } from '../../dicom/index.js';
import { MAX_COMMITMENT_INSTANCES } from '../../dimse/storage-commitment.js';
import type { DestinationRow } from './destinations.repository.js';
import { pushFinisher } from './push-finish.js';
import type { StorageCommitmentService } from './storage-commitment.service.js';
import type { StorageCommitmentsRepository } from './storage-commitments.repository.js';
import type { PacsPeer } from './pacs-client.js';
import type { JobHandler } from '../../jobs/job-runner.js';
import type { DestinationsRepository } from './destinations.repository.js';
import type { PushInstanceRow, StudyPushesRepository, StudyPushRow } from './study-pushes.repository.js';
import type { AuditService } from '../../audit/audit.service.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { peerOf } from './destination-job.js';
import type { CallingAeOf } from './destination-job.js';
import type { PacsClient } from './pacs-client.js';
import type { StorageCommitmentRow } from './storage-commitments.repository.js';
import { deidentifiedSources, plainSources } from './push-sources.js';
import { BURNED_IN_REFUSAL } from './push-profiles.js';
import type { BoundPushProfile, PushProfiles } from './push-profiles.js';

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
  /** The account's de-identification profiles (privacy's Deidentifier; decision 0071). */
  profiles?: PushProfiles | undefined;
  /** Storage commitment (decision 0064): its table, its reports and expiry, the queue for the expiry. */
  commitment: {
    commitments: StorageCommitmentsRepository;
    service: Pick<StorageCommitmentService, 'report' | 'refused'>;
    jobs: Pick<JobQueue, 'enqueue'>;
    /** The wait for a report when the destination sets none, in seconds. */
    defaultTimeoutS: number;
    /** Longest wait for the report on the N-ACTION's own association (default 30 s). */
    sameAssociationWaitMs?: number;
    /** How often that wait checks whether the report came on another association (default 500 ms). */
    pollMs?: number;
  };
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
 * stored), with the reason. To a destination with storage commitment, the last pass then asks the
 * PACS to commit what it stored (storage-commitment.service.ts ends the attempt on its report).
 */
export function studyPushJob(deps: Deps): JobHandler<{ push: string; destination: string }> {
  const now = deps.now ?? Date.now;
  const maxAttempts = deps.maxAttempts ?? 4;
  const finish = pushFinisher(deps);
  const commit = commitmentStep(deps, now);
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
      // Asked already (the server restarted while the report was awaited): the report or the expiry ends it.
      const asked = await deps.commitment.commitments.waitingOf(uuid);
      if (asked) return commit(push, destination, await peerOf(destination, deps.callingAes), asked, signal);
      // The attempt's profile, or the destination's (a push queued before it named one, or by a
      // nomination): nothing leaves identified for a de-identifying destination. A profile gone
      // since fails the attempt rather than send the files as they are.
      const profileId = push.anonymization_id ?? destination.anonymization_id;
      let profile: BoundPushProfile | undefined;
      if (profileId) {
        try {
          profile = await deps.profiles!.bind(push.account_id, profileId);
        } catch {
          return finish(push, 'the de-identification profile no longer exists: nothing was sent');
        }
      }
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
            const { sources, outcomeOf } = profile
              ? deidentifiedSources(lane, profile, deps.blobs)
              : plainSources(lane, deps.blobs);
            try {
              await deps.pacs.storeInstances(
                peer,
                sources,
                async (outcome) => {
                  const stored = outcome.category === 'success' || outcome.category === 'warning';
                  const sent = outcomeOf(outcome);
                  if (!stored && sent.reason) reasons.push(sent.reason);
                  await deps.pushes.recordInstance(uuid, sent.source, {
                    state: stored ? 'stored' : outcome.category === 'retry' ? 'pending' : 'failed',
                    reason: stored ? null : (sent.reason ?? `status ${outcome.status}`),
                    ...(sent.sentUid ? { sentUid: sent.sentUid } : {}),
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
      // A reason the PACS gave before our own refusals for burned-in text (those are counted apart).
      const reason = reasons.find((r) => r !== BURNED_IN_REFUSAL) ?? reasons[0] ?? null;
      if (counts.pending > 0 && job.attempts < maxAttempts) {
        // Back to the queue: the runner retries after its back-off, with only the pending instances.
        throw new Error(`${counts.pending} instance(s) not stored yet: ${reason ?? 'unknown reason'}`);
      }
      if (Number(destination.storage_commitment) === 1 && counts.stored > 0) {
        return commit(push, destination, peer, undefined, signal);
      }
      await finish(push, counts.pending > 0 ? `${counts.pending} instance(s) not stored: ${reason}` : reason);
    },
    async onFailed({ push: uuid }, error) {
      const push = await deps.pushes.find(uuid);
      if (push && ['I', 'N'].includes(push.status)) await finish(push, error);
    },
  };
}

/**
 * The storage commitment step: records the transaction (durable, with its expiry job due at the
 * deadline) before the N-ACTION leaves, then waits a while on that association for the report.
 * A PACS that reports on an association of its own reaches StorageCommitmentService through the
 * listener; the wait here stops as soon as the record says it was settled.
 */
function commitmentStep(deps: Deps, now: () => number) {
  const c = deps.commitment;
  return async (
    push: StudyPushRow,
    destination: DestinationRow,
    peer: PacsPeer,
    existing: StorageCommitmentRow | undefined,
    signal: AbortSignal,
  ): Promise<void> => {
    const timeoutMs =
      (destination.storage_commitment_timeout === null
        ? c.defaultTimeoutS
        : Number(destination.storage_commitment_timeout)) * 1000;
    let row = existing;
    if (!row) {
      const requested = now();
      row = {
        transaction_uid: newUid(),
        push_id: push.uuid,
        destination_id: destination.uuid,
        state: 'waiting',
        requested,
        acknowledged: null,
        deadline: requested + timeoutMs,
        reported: null,
      };
      await c.commitments.insert(row);
      await c.jobs.enqueue(
        STORAGE_COMMITMENT_EXPIRY_JOB,
        { transaction: row.transaction_uid },
        { runAt: Number(row.deadline), dedupeKey: `commitment:${row.transaction_uid}` },
      );
    }
    const items = (await deps.pushes.stored(push.uuid)).map((i) => ({
      sopClassUid: i.sop_class_uid,
      sopInstanceUid: i.sop_instance_uid,
    }));
    if (items.length > MAX_COMMITMENT_INSTANCES) {
      return c.service.refused(row, `more than ${MAX_COMMITMENT_INSTANCES} instances in one request`);
    }
    const settled = new AbortController();
    const onAbort = () => settled.abort();
    signal.addEventListener('abort', onAbort);
    const transaction = row.transaction_uid;
    const poll = setInterval(() => {
      void c.commitments.find(transaction).then(
        (r) => r?.state !== 'waiting' && settled.abort(),
        () => undefined,
      );
    }, c.pollMs ?? 500);
    try {
      await deps.pacs.requestCommitment(peer, transaction, items, {
        reportWaitMs: Math.min(timeoutMs, c.sameAssociationWaitMs ?? 30_000),
        signal: settled.signal,
        onReport: (report) =>
          c.service.report(
            { callingAe: destination.aetitle, calledAe: peer.callingAe, destinationIds: [destination.uuid] },
            report,
          ),
      });
      await c.commitments.acknowledged(transaction, now());
    } catch (error) {
      if (signal.aborted) return;
      await c.service.refused(row, error instanceof Error ? error.message : String(error));
    } finally {
      clearInterval(poll);
      signal.removeEventListener('abort', onAbort);
    }
  };
}
