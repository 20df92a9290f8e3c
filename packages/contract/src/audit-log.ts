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

/**
 * Every action the server records in the audit log. The server's audit events take one of these, so
 * a new action is added here first, and the Audit Log page must then name it in words (its labels
 * are keyed by this list).
 */
export const AUDIT_ACTIONS = [
  // The filter's actions first, then the rest.
  ...AUDIT_FILTER_ACTIONS,
  'CREATE',
  'UPDATE',
  'IMAGE_ADD',
  'THUMBNAIL_VIEW',
  'VIEWER_TOKEN',
  'ATTACHMENT_LIST',
  'STUDY_EXISTS',
  'RETRIEVE',
  'RETRIEVE_END',
  'PUSH_END',
  'ORDER_SEARCH',
  'ORDER_UPDATE',
  'ORDER_CANCEL',
  'NOMINATE_CANCEL',
  'DESTINATION_SEARCH',
  'DESTINATION_SEARCH_END',
  'LINK_USE',
  'SEND_LINK_CODE',
  'SEND_LINK_VERIFY',
  'HL7_RESULT',
  'DECLINE',
  'DICOM_FIND',
  'DICOM_MOVE',
  'DICOM_GET',
  'TWO_FACTOR_ENROL',
  'TWO_FACTOR_DISABLE',
  'TWO_FACTOR_RESET',
  'TWO_FACTOR_CODE_FAILED',
  'TWO_FACTOR_RECOVERY_CODE_USED',
  'ACCOUNT_SSO_SET',
  'SSO_LOGIN',
  'SSO_LOGIN_REFUSED',
  'SSO_JIT_CREATE',
  'SSO_ROLE_CHANGE',
  'ACCOUNT_SET',
  'ENABLE',
  'DISABLE',
  'RESUME',
  'SUSPEND',
  'ACCEPT',
  'MEMBER_SET',
  'MEMBER_DELETE',
  'LABEL_SET',
  'LABEL_DELETE',
  'NAMESPACE_SETTINGS',
  'ORDER_COMPARE',
  'COERCE',
  'PROCESS',
  'ECHO',
  'STUDY_ADD',
  'STUDY_SYNC',
  'STUDY_TIMING',
  'LOCK',
  'UNLOCK',
  'LOCK_BREAK',
] as const;

/** One action the server records. */
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
