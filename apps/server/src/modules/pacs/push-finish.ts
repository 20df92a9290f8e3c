import { studyEvent, type AuditService } from '../../audit/audit.service.js';
import type { StudyPushesRepository, StudyPushRow } from './study-pushes.repository.js';

export interface PushFinishDeps {
  pushes: StudyPushesRepository;
  audit: AuditService;
  /** Told of each attempt's end (webhooks), after it is recorded. */
  onFinished?: ((push: StudyPushRow, status: 'S' | 'P' | 'F') => Promise<void>) | undefined;
  now?: () => number;
}

/**
 * Ends a push attempt: S (all stored), P (some stored, the rest failed or still refused) or F (none
 * stored), or F whatever was stored when `failed` says so (storage commitment refused or never
 * reported, decision 0064); recorded, audited (PUSH_END) and told to `onFinished`. Shared by the
 * push job and the storage commitment that ends a push later.
 */
export function pushFinisher(deps: PushFinishDeps) {
  const now = deps.now ?? Date.now;
  return async (push: StudyPushRow, reason: string | null, failed = false): Promise<void> => {
    const counts = await deps.pushes.counts(push.uuid);
    const status = failed || counts.stored === 0 ? 'F' : counts.failed + counts.pending > 0 ? 'P' : 'S';
    await deps.pushes.setStatus(push, status, status === 'S' ? null : reason, now());
    await deps.audit.record(
      studyEvent(
        { userId: push.user_id },
        { uuid: push.study_uuid, account_id: push.account_id },
        'PUSH_END',
        { push: push.uuid, destination_id: push.destination_id, status, reason, ...counts },
        status === 'S' ? 'SUCCESS' : 'FAILURE',
      ),
    );
    await deps.onFinished?.(push, status);
  };
}
