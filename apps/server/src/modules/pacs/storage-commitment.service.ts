import type {
  CommitmentReport,
  CommitmentReporter,
  ReportAnswer,
  StorageCommitmentReports,
} from '../../dimse/storage-commitment.js';
import { describeFailureReason } from '../../dimse/storage-commitment.js';
import type { StorageCommitmentRow, StorageCommitmentsRepository } from './storage-commitments.repository.js';
import type { StudyPushesRepository, StudyPushRow } from './study-pushes.repository.js';

/** N-EVENT-REPORT-RSP status for a transaction we do not know (or that is not this PACS's). */
const NO_SUCH_TRANSACTION = 0x0112;
/** How many failed instances a push's reason names (the rest are counted; each instance keeps its own). */
const LISTED_FAILURES = 5;

interface Deps {
  commitments: StorageCommitmentsRepository;
  pushes: StudyPushesRepository;
  /** Ends the push (push-finish.ts). */
  finish: (push: StudyPushRow, reason: string | null, failed?: boolean) => Promise<void>;
  log?: (line: string) => void;
  now?: () => number;
}

/**
 * Storage commitment of pushes (decision 0064): takes the PACS's reports, from our own N-ACTION's
 * association or one the PACS opens to our listener (the listener's `StorageCommitmentReports`),
 * and ends a commitment that got no report in time. Each ends its push: S when every instance was
 * committed, F with the failed instances otherwise; an instance not committed is marked failed, so
 * the Retry sends it again and only it.
 */
export class StorageCommitmentService implements StorageCommitmentReports {
  private readonly now: () => number;

  constructor(private readonly deps: Deps) {
    this.now = deps.now ?? Date.now;
  }

  async report(from: CommitmentReporter, report: CommitmentReport): Promise<ReportAnswer> {
    const row = await this.deps.commitments.find(report.transactionUid);
    // Another PACS's transaction, or a made-up one, reads as unknown: it changes nothing.
    if (!row || !from.destinationIds.includes(row.destination_id)) {
      this.deps.log?.(
        `storage commitment report from ${from.callingAe} for unknown transaction ${report.transactionUid} refused`,
      );
      return { status: NO_SUCH_TRANSACTION, comment: 'unknown transaction' };
    }
    if (row.state !== 'waiting') return { status: 0 };
    const committed = new Set(report.committed.map((i) => i.sopInstanceUid));
    const failedReasons = new Map(report.failed.map((i) => [i.sopInstanceUid, i.reason]));
    const uncommitted = new Map<string, string>();
    for (const instance of await this.deps.pushes.stored(row.push_id)) {
      const uid = instance.sop_instance_uid;
      if (committed.has(uid) && !failedReasons.has(uid)) continue;
      const reason = failedReasons.get(uid);
      uncommitted.set(
        uid,
        reason === undefined
          ? 'not committed: absent from the storage commitment report'
          : `not committed: ${describeFailureReason(reason)}`,
      );
    }
    const state = uncommitted.size ? 'failed' : 'committed';
    if (!(await this.deps.commitments.settle(row, state, uncommitted, this.now()))) return { status: 0 };
    const push = await this.deps.pushes.find(row.push_id);
    if (push) {
      if (!uncommitted.size) await this.deps.finish(push, null);
      else await this.deps.finish(push, failureReason(uncommitted), true);
    }
    return { status: 0 };
  }

  /** The expiry: a commitment still waiting past its deadline ends its push F. */
  async expire(transactionUid: string): Promise<void> {
    const row = await this.deps.commitments.find(transactionUid);
    if (!row || row.state !== 'waiting') return;
    const seconds = Math.round((Number(row.deadline) - Number(row.requested)) / 1000);
    await this.giveUp(row, 'expired', `no storage commitment report within ${seconds} s`);
  }

  /** The PACS would not take the request (no context, refused N-ACTION, no answer): the push ends F. */
  async refused(row: StorageCommitmentRow, why: string): Promise<void> {
    await this.giveUp(row, 'failed', `storage commitment refused: ${why}`);
  }

  private async giveUp(
    row: StorageCommitmentRow,
    state: 'failed' | 'expired',
    reason: string,
  ): Promise<void> {
    const stored = await this.deps.pushes.stored(row.push_id);
    const uncommitted = new Map(stored.map((i) => [i.sop_instance_uid, `not committed: ${reason}`]));
    if (!(await this.deps.commitments.settle(row, state, uncommitted, this.now()))) return;
    const push = await this.deps.pushes.find(row.push_id);
    if (push) await this.deps.finish(push, reason, true);
  }
}

/** "storage commitment failed for 2 instance(s): 1.2.3 (no such object instance), …". */
function failureReason(uncommitted: ReadonlyMap<string, string>): string {
  const listed = [...uncommitted]
    .slice(0, LISTED_FAILURES)
    .map(([uid, why]) => `${uid} (${why.replace(/^not committed: /, '')})`);
  const more = uncommitted.size > LISTED_FAILURES ? `, and ${uncommitted.size - LISTED_FAILURES} more` : '';
  return `storage commitment failed for ${uncommitted.size} instance(s): ${listed.join(', ')}${more}`;
}
