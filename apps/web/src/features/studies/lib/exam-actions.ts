import { MESSAGES, type Study, type StudyPermission } from '@imaging-inbox/contract';
import { allGrant } from './exam-tabs';

/** One answer of a bundle sub-request: OK, or an api/v3 error with its type. */
export interface BundleAnswer {
  status: 'OK' | 'ERROR';
  error_type?: string;
  /** why, when the type alone does not say (burned_in_text for a de-identifying group) */
  error_subtype?: string | null;
}

export interface ActionOutcome {
  /** uuids whose call answered OK, in request order */
  succeeded: string[];
  /** uuids whose call failed, with the error type (and its subtype when it had one) */
  failed: { uuid: string; code: string; subtype?: string }[];
}

/** Pairs bundle answers with the uuids they were sent for; a missing answer counts as failed. */
export function countOutcome(uuids: string[], answers: BundleAnswer[]): ActionOutcome {
  const outcome: ActionOutcome = { succeeded: [], failed: [] };
  uuids.forEach((uuid, i) => {
    const answer = answers[i];
    if (answer?.status === 'OK') outcome.succeeded.push(uuid);
    else {
      const code = answer?.error_type ?? 'UNEXPECTED_ERROR';
      const subtype = answer?.error_subtype;
      outcome.failed.push(subtype ? { uuid, code, subtype } : { uuid, code });
    }
  });
  return outcome;
}

export interface Notice {
  text: string;
  variant: 'success' | 'error';
}

/**
 * The delete snackbars (SPEC.md section 8): one study gets 'Exam Deleted Successfully' or 'Exam
 * failed to be deleted'; a selection gets 'N exams deleted successfully' and/or 'N exams failed to
 * delete'.
 */
export function deleteNotices(total: number, outcome: ActionOutcome): Notice[] {
  const ok = outcome.succeeded.length;
  const failed = outcome.failed.length;
  if (total === 1) {
    return [
      ok === 1
        ? { text: MESSAGES.deleteOne, variant: 'success' }
        : { text: MESSAGES.deleteOneFailed, variant: 'error' },
    ];
  }
  const notices: Notice[] = [];
  if (ok > 0) notices.push({ text: `${ok} ${MESSAGES.deleteMany}`, variant: 'success' });
  if (failed > 0) notices.push({ text: `${failed} ${MESSAGES.deleteManyFailed}`, variant: 'error' });
  return notices;
}

/** Restore has no catalogue text; it follows the delete wording. */
export function restoreNotices(total: number, outcome: ActionOutcome): Notice[] {
  const ok = outcome.succeeded.length;
  const failed = outcome.failed.length;
  if (total === 1) {
    return [
      ok === 1
        ? { text: 'Exam restored successfully', variant: 'success' }
        : { text: 'Exam failed to be restored', variant: 'error' },
    ];
  }
  const notices: Notice[] = [];
  if (ok > 0) notices.push({ text: `${ok} exams restored successfully`, variant: 'success' });
  if (failed > 0) notices.push({ text: `${failed} exams failed to restore`, variant: 'error' });
  return notices;
}

/** A selection without the studies that were just deleted. */
export function withoutUuids<T extends { uuid: string }>(selection: Map<string, T>, gone: string[]) {
  if (!gone.some((uuid) => selection.has(uuid))) return selection;
  const next = new Map(selection);
  for (const uuid of gone) next.delete(uuid);
  return next;
}

/** The share message trimmed; undefined when nothing is left, so it is not sent at all. */
export function shareMessage(raw: string): string | undefined {
  const trimmed = raw.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Share is enabled with at least one recipient and while no share is running. */
export function canSubmitShare(userIds: string[], groupIds: string[], busy: boolean): boolean {
  return !busy && userIds.length + groupIds.length > 0;
}

/** Edit MRN is enabled for a non-blank value that differs from the current one, while idle. */
export function canSubmitMrn(value: string, current: string, busy: boolean): boolean {
  const trimmed = value.trim();
  return !busy && trimmed !== '' && trimmed !== current;
}

/** Which recipient kinds the whole selection may be shared with. */
export function shareKinds(studies: Study[]): { users: boolean; groups: boolean } {
  const share = allGrant(studies, 'study_share');
  return {
    users: share && allGrant(studies, 'study_share_user'),
    groups: share && allGrant(studies, 'study_share_group'),
  };
}

/** Whether every selected study grants the permission (re-exported for the action components). */
export const selectionAllows = (studies: Study[], permission: StudyPermission) =>
  allGrant(studies, permission);

/** A tag as the server stores it: trimmed, 1..64 characters; null when it cannot be added. */
export function normaliseTag(raw: string, existing: string[]): string | null {
  const tag = raw.trim();
  if (tag === '' || tag.length > 64 || existing.includes(tag)) return null;
  return tag;
}
