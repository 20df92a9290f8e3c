/** One event of audit/log (an account's audit for audit_view holders). */
export interface AuditLogEntry {
  id: number;
  when: string;
  action: string;
  outcome: string;
  type: string;
  object_id: string | null;
  user_id: string | null;
  user_name: string | null;
  user_email: string | null;
  ip: string | null;
  /** The account's study the event is about: its patient (DICOM name) and description. */
  study: { patient_name: string; description: string } | null;
  detail: Record<string, unknown> | null;
  /** Names of the account's groups a detail names (a search's filters, a send's or share's target), by namespace id or group uuid (pages only). */
  group_names?: Record<string, string>;
  /**
   * The account's studies a detail names by uuid (a send's or a routing rule's copy), by uuid: their
   * patient (DICOM name) and description (pages only; a study of another account stays unnamed).
   */
  study_names?: Record<string, { patient_name: string; description: string }>;
}

/**
 * Actions the audit log's filter offers by name; any other action the server records can still be
 * typed in.
 */
export const AUDIT_FILTER_ACTIONS = [
  'LOGIN',
  'LOGOUT',
  'PASSWORD_CHANGE',
  'PASSWORD_RESET',
  'PASSWORD_RESET_REQUEST',
  'PROFILE_EDIT',
  'STUDY_VIEW',
  'STUDY_SEARCH',
  'STUDY_UPLOAD',
  'STUDY_DOWNLOAD',
  'STUDY_SEND',
  'ROUTE',
  'PUSH',
  'NOMINATE',
  'REJECT',
  'ATTACHMENT_VIEW',
  'LINK_CREATE',
  'LINK_REVOKE',
  'ORDER_ADD',
  'REPORT_ADD',
  'PURGE',
  'ADD',
  'EDIT',
  'DELETE',
  'INVITE',
] as const;
