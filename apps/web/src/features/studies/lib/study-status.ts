import { STUDY_STATUS, type Study } from '@imaging-inbox/contract';

export type StudyStatusIcon = 'processed' | 'rejected' | 'failed' | 'queued' | 'nominated' | 'incomplete';

export const CUSTOM_FIELDS = {
  priority: 'priority',
  rejected: 'is_process_form_rejected',
  nominatedAt: 'nominated_at',
  /**
   * On the nominator's own study (the server adds it while a nomination is live): the push status
   * of its copy in the gatekeeper group, empty while the nomination awaits the gatekeeper.
   */
  nominationPushStatus: 'nomination_push_status',
} as const;

const QUEUED = new Set(['I', 'N', 'P']);

/**
 * A workflow field's value. Account-defined fields carry a uuid and are left out, so a field an
 * account happens to call "priority" does not steer the nomination workflow.
 */
export function customField(study: Study, name: string): string | null {
  const value = study.customfields.find((f) => f.name === name && !f.uuid)?.value;
  return value === undefined || value === null || value === '' ? null : value;
}

/** The latest push status code (I, N, P, S, F, R), or null if never pushed. */
export function latestPushStatus(study: Study): string | null {
  if (study.study_push_status.length === 0) return null;
  const latest = [...study.study_push_status].sort((a, b) => b.updated.localeCompare(a.updated))[0];
  return latest?.status ?? null;
}

function isSet(value: string | null): boolean {
  return value !== null && value !== '0' && value.toLowerCase() !== 'false';
}

/**
 * The card icons (SPEC.md section 2): processed = completed; rejected = the rejected custom field is
 * set; failed = failed; queued = waiting to be sent or being sent; nominated = the nomination field
 * is set and neither completed nor rejected; incomplete = the retrieve from a PACS that filled it
 * failed part-way (retrieving it again completes it). A nominator's study reads its PACS status from
 * its copy's (the nomination push status), a gatekeeper's copy or a pushed study from its own pushes.
 */
export function studyStatusIcons(study: Study): StudyStatusIcon[] {
  const push = customField(study, CUSTOM_FIELDS.nominationPushStatus) ?? latestPushStatus(study);
  const completed = push === 'S';
  const rejected = isSet(customField(study, CUSTOM_FIELDS.rejected));
  const icons: StudyStatusIcon[] = [];
  if (study.study_status === STUDY_STATUS.incomplete) icons.push('incomplete');
  if (completed) icons.push('processed');
  if (rejected) icons.push('rejected');
  if (push === 'F') icons.push('failed');
  if (push !== null && QUEUED.has(push) && !rejected) icons.push('queued');
  if (customField(study, CUSTOM_FIELDS.nominatedAt) !== null && !completed && !rejected)
    icons.push('nominated');
  return icons;
}
