import type { AnswerPage } from './api-params.js';
import type { GroupType } from './groups.js';
import type { PermissionFlags } from './permissions.js';

export interface LoginAnswer {
  status: 'OK';
  sid: string;
  uuid: string;
  name: string;
  pin_required: 0 | 1;
  privacy: string | null;
  indicator: string | null;
  terms: string | null;
  training_todo: 0 | 1;
  is_proxy: 0 | 1;
  /** Only when this sign-in enrolled a two-factor code (MFA_ENROLMENT_REQUIRED): shown once. */
  recovery_codes?: string[];
}

export interface SessionUser {
  status: 'OK';
  uuid: string;
  name: string;
  first: string;
  last: string;
  email: string;
  /** The user's first account and its namespace; null for a user in no account (a sysadmin). */
  namespace_id: string | null;
  account_id: string | null;
  ui_json: string | null;
  time_zone: string | null;
  session_expire: string;
  sysadmin: 0 | 1;
  support: 0 | 1;
  admin: 0 | 1;
}

export interface PermissionsAnswer extends PermissionFlags {
  status: 'OK';
}

export interface TtlAnswer {
  status: 'OK';
  ttl: number;
}

export interface AccountSummary {
  uuid: string;
  name: string;
  namespace_id: string;
  vanity: string | null;
}

export interface AccountAnswer extends AccountSummary {
  status: 'OK';
  permissions: PermissionFlags;
  settings: Record<string, string>;
  /** The AE title the account calls its PACS destinations as (decision 0054). */
  calling_aet?: string;
  brand_settings: Record<string, string>;
}

export interface GroupSummary {
  uuid: string;
  name: string;
  namespace_id: string;
  type: GroupType;
  account_id: string;
  permissions: PermissionFlags;
}

/** account/list: the accounts with the inbox view enabled. */
export interface AccountListAnswer {
  status: 'OK';
  accounts: AccountSummary[];
  page: { number: number; rows: number; more: 0 | 1 };
}

/** group/list: the caller's groups, optionally of one account. */
export interface GroupListAnswer {
  status: 'OK';
  groups: GroupSummary[];
  page: { number: number; rows: number; more: 0 | 1 };
}

export interface NamespaceSummary {
  namespace_id: string;
  name: string;
  type: 'ACCOUNT' | GroupType;
  account_id: string;
}

/** user/namespace/list: the accounts and groups the caller belongs to. */
export interface NamespaceListAnswer {
  status: 'OK';
  namespaces: NamespaceSummary[];
  page: AnswerPage;
}
