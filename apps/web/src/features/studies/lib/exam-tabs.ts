import type { Study, StudyPermission } from '@imaging-inbox/contract';
import type { InboxGroupType } from '../../inbox/lib/groups';

export type ExamTab =
  | 'Summary'
  | 'Viewer'
  | 'Downloads'
  | 'Share'
  | 'PACS'
  | 'Edit MRN'
  | 'Send exams'
  | 'Attachments'
  | 'Delete exams'
  | 'Exchange'
  | 'Process';

/** An action on a selection is allowed only if every selected study grants it. */
export function allGrant(studies: Study[], permission: StudyPermission): boolean {
  return studies.length > 0 && studies.every((s) => s.permissions[permission] === 1);
}

const canDownload = (s: Study[]) => allGrant(s, 'study_download') && allGrant(s, 'study_download_iso');
const canShare = (s: Study[]) =>
  allGrant(s, 'study_share') && (allGrant(s, 'study_share_user') || allGrant(s, 'study_share_group'));
const canSend = (s: Study[]) =>
  allGrant(s, 'study_share') &&
  (allGrant(s, 'study_share_account') ||
    allGrant(s, 'study_share_email') ||
    allGrant(s, 'study_share_share_code'));

export interface ExamTabsInput {
  groupType: InboxGroupType;
  state: string;
  studies: Study[];
}

/**
 * Which exam-detail tabs show and which opens first (SPEC.md section 2): gatekeeper groups have
 * Summary, Exchange, Viewer, Downloads, Attachments, Process; a multi-selection only the bulk
 * actions; Downloads, Share and Send exams follow their permissions. Default: Exchange for
 * Shared w/ group, Process for a gatekeeper, Downloads for a multi-selection, else Summary.
 */
export function examTabs({ groupType, state, studies }: ExamTabsInput): {
  tabs: ExamTab[];
  defaultTab: ExamTab;
} {
  const multi = studies.length > 1;
  const fromShare = studies.some((s) => s.source === 'share');
  let tabs: ExamTab[];
  if (groupType === 'GATEKEEPER') {
    tabs = ['Summary', 'Exchange', 'Viewer'];
    if (canDownload(studies)) tabs.push('Downloads');
    tabs.push('Attachments', 'Process');
  } else if (multi) {
    tabs = [];
    if (canDownload(studies)) tabs.push('Downloads');
    if (canShare(studies)) tabs.push('Share');
    if (canSend(studies)) tabs.push('Send exams');
    if (allGrant(studies, 'study_delete')) tabs.push('Delete exams');
  } else {
    tabs = ['Summary', 'Viewer'];
    if (canDownload(studies)) tabs.push('Downloads');
    if (canShare(studies)) tabs.push('Share');
    if (allGrant(studies, 'study_push') && !fromShare) tabs.push('PACS');
    if (allGrant(studies, 'study_edit') && !fromShare) tabs.push('Edit MRN');
    if (canSend(studies)) tabs.push('Send exams');
    tabs.push('Attachments');
    if (allGrant(studies, 'study_delete')) tabs.push('Delete exams');
    if (state === 'Shared w/ group') tabs.push('Exchange');
  }
  const preferred: ExamTab =
    state === 'Shared w/ group' && groupType === 'CLOUD'
      ? 'Exchange'
      : groupType === 'GATEKEEPER'
        ? 'Process'
        : multi
          ? 'Downloads'
          : 'Summary';
  const defaultTab = tabs.includes(preferred) ? preferred : (tabs[0] ?? 'Summary');
  return { tabs, defaultTab };
}
