import type { AuditLogEntry } from '@imaging-inbox/contract';

/** Names people read for the recorded action codes; an unknown code reads as its words. */
const ACTION_LABELS: Record<string, string> = {
  LOGIN: 'Sign-in',
  LOGOUT: 'Sign-out',
  PASSWORD_CHANGE: 'Password change',
  PASSWORD_RESET: 'Password reset',
  PASSWORD_RESET_REQUEST: 'Password reset request',
  PROFILE_EDIT: 'Profile edit',
  STUDY_VIEW: 'Study viewed',
  STUDY_SEARCH: 'Study search',
  STUDY_UPLOAD: 'Study uploaded',
  STUDY_DOWNLOAD: 'Study downloaded',
  STUDY_SEND: 'Study sent',
  ROUTE: 'Routing rule run',
  PUSH: 'Push to PACS',
  NOMINATE: 'Nomination',
  REJECT: 'Rejection',
  ATTACHMENT_VIEW: 'Attachment viewed',
  LINK_CREATE: 'Link created',
  LINK_REVOKE: 'Link revoked',
  ORDER_ADD: 'Order added',
  REPORT_ADD: 'Report added',
  PURGE: 'Purge',
  ADD: 'Added',
  EDIT: 'Edited',
  DELETE: 'Deleted',
  INVITE: 'Invitation',
};

/** The English label of an action code (to be passed through `t`). */
export function actionLabel(action: string): string {
  const known = ACTION_LABELS[action];
  if (known) return known;
  const words = action.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Whether the event records a refusal or failure (a failed sign-in, a refused call). */
export const isFailure = (entry: Pick<AuditLogEntry, 'outcome'>) => entry.outcome !== 'SUCCESS';

/**
 * An event's details on one line: `key: value` pairs, nested values as compact JSON, long
 * values cut so a row stays one line high; the full text is in the CSV export.
 */
export function detailText(detail: AuditLogEntry['detail'], max = 160): string {
  if (!detail) return '';
  const text = Object.entries(detail)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
