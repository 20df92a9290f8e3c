/**
 * Every permission flag the product knows, declared once. Account roles and group memberships grant
 * subsets of these; each study answer carries the computed flags so the UI can hide what is refused.
 */
export const STUDY_PERMISSIONS = [
  'study_upload',
  'study_view',
  'study_edit',
  'study_delete',
  'study_download',
  'study_download_iso',
  /** Download exams de-identified by one of the account's profiles (anonymize=1, issue 33). */
  'study_download_anonymized',
  'study_share',
  'study_share_user',
  'study_share_group',
  'study_share_email',
  'study_share_share_code',
  'study_share_account',
  'study_share_location',
  'study_manual_route',
  'study_tag',
  'study_star',
  'study_thin',
  'study_sync',
  'study_push',
  'study_approve',
  /** Add a report (text or PDF) to a study, stored as a DICOM series of it. */
  'study_report_add',
  'study_request_edit',
  'study_request_view',
  'study_request_view_inbound',
] as const;

export const OTHER_PERMISSIONS = [
  'destination_search',
  'destination_search_mwl',
  'order_view',
  'order_edit',
  'account_user_view',
  'account_user_edit',
  'account_user_invite',
  'group_view',
  'group_edit',
  'route_view',
  'route_edit',
  'role_view',
  'role_edit',
  'link_edit',
  'user_modify_notifications',
  'user_modify_sharecode',
  'audit_view',
  /** Reword the account's labels in any language (label/set, label/delete). */
  'label_edit',
  /** See the account's de-identification profiles (anonymization/list, get). */
  'anonymization_view',
  /** Add, change and delete the account's de-identification profiles. */
  'anonymization_edit',
] as const;

export const ALL_PERMISSIONS = [...STUDY_PERMISSIONS, ...OTHER_PERMISSIONS] as const;
export type StudyPermission = (typeof STUDY_PERMISSIONS)[number];
export type Permission = (typeof ALL_PERMISSIONS)[number];
/** 0/1 flags keyed by permission name, as api/v3 answers them. */
export type PermissionFlags = Record<Permission, 0 | 1>;
export type StudyPermissionFlags = Record<StudyPermission, 0 | 1>;

export function isPermission(name: string): name is Permission {
  return (ALL_PERMISSIONS as readonly string[]).includes(name);
}
