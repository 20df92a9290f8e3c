/** Audit actions the exam history shows (SPEC.md section 4). */
export const SHOWN_AUDIT_ACTIONS = ['CREATE', 'EDIT', 'STUDY_VIEW', 'STUDY_DOWNLOAD', 'DELETE'] as const;

export type HistoryKind = 'upload' | 'view' | 'edit' | 'download' | 'shared' | 'invite' | 'remove share';

/**
 * The history kind of an audit event: CREATE of a study is an upload, of an invite an invite, of a
 * share 'shared'; DELETE of a share is 'remove share'. Anything else is not shown (null).
 */
export function historyKind(action: string, type: string | null | undefined): HistoryKind | null {
  const objectType = (type ?? 'study').toLowerCase();
  switch (action) {
    case 'CREATE':
      if (objectType === 'invite') return 'invite';
      if (objectType === 'share') return 'shared';
      return objectType === 'study' ? 'upload' : null;
    case 'EDIT':
      return 'edit';
    case 'STUDY_VIEW':
      return 'view';
    case 'STUDY_DOWNLOAD':
      return 'download';
    case 'DELETE':
      return objectType === 'share' ? 'remove share' : null;
    default:
      return null;
  }
}
