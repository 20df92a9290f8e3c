import type { Permission } from '@imaging-inbox/contract';

/**
 * What each permission lets a person do, as the role editor and the roles list show it (in the
 * user's language through `t`). Keyed by every permission, so a new one cannot ship without words.
 */
export const PERMISSION_LABELS: Readonly<Record<Permission, string>> = {
  study_upload: 'Upload exams',
  study_view: 'View exams',
  study_edit: 'Edit exams',
  study_delete: 'Delete exams',
  study_download: 'Download exams',
  study_download_iso: 'Download exams as a disc image',
  study_download_anonymized: 'Download exams de-identified',
  study_share: 'Share exams',
  study_share_user: 'Share exams with a person',
  study_share_group: 'Share exams with a group',
  study_share_email: 'Send exams by e-mail',
  study_share_share_code: 'Send exams to a share code',
  study_share_account: 'Send exams to a connected account',
  study_share_location: 'Send exams to a location',
  study_manual_route: 'Run routing rules by hand',
  study_tag: 'Tag exams',
  study_star: 'Star exams',
  study_thin: 'Mark exams as thin',
  study_sync: 'Synchronise exams',
  study_push: 'Send exams to PACS',
  study_approve: 'Approve nominated exams',
  study_report_add: 'Add reports',
  study_request_edit: 'Request exams from outside',
  study_request_view: 'View exam requests',
  study_request_view_inbound: 'View incoming exam requests',
  destination_search: 'Search destinations',
  destination_search_mwl: 'Search worklists (MWL)',
  order_view: 'View orders',
  order_edit: 'Edit orders',
  account_user_view: 'View users',
  account_user_edit: 'Edit users',
  account_user_invite: 'Invite users',
  group_view: 'View groups',
  group_edit: 'Edit groups',
  route_view: 'View routing rules',
  route_edit: 'Edit routing rules',
  role_view: 'View roles',
  role_edit: 'Edit roles',
  link_edit: 'Create and revoke upload links',
  user_modify_notifications: 'Choose own notifications',
  user_modify_sharecode: 'Change own share code',
  audit_view: 'View the audit log',
  label_edit: 'Reword labels',
  anonymization_view: 'View de-identification profiles',
  anonymization_edit: 'Edit de-identification profiles',
};

/** A permission as the role editor shows it (English, to pass through `t`): "Send exams by e-mail". */
export function permissionLabel(permission: Permission): string {
  return PERMISSION_LABELS[permission] ?? permission;
}
