import type {
  Permission,
  PermissionFlags,
  StudyPermission,
  StudyPermissionFlags,
} from '@imaging-inbox/contract';
import { ALL_PERMISSIONS, STUDY_PERMISSIONS, isPermission } from '@imaging-inbox/contract';
import type { UserRow } from '../repositories/users.repository.js';
import type { LockedStudy } from './study-lock.js';
import { isLockedByOther } from './study-lock.js';

export interface GroupAccess {
  groupId: string;
  accountId: string;
  namespaceId: string;
  name: string;
  type: string;
  permissions: ReadonlySet<Permission>;
}

export interface AccountAccess {
  accountId: string;
  admin: boolean;
  permissions: ReadonlySet<Permission>;
}

/**
 * What the signed-in user may reach, loaded once per request: the accounts they belong to and the
 * groups (namespaces) they can see, each with the permissions it grants. An account admin holds
 * every permission in every group of that account.
 */
export interface Caller {
  user: UserRow;
  sidHash: string;
  ip: string;
  accounts: ReadonlyMap<string, AccountAccess>;
  /** keyed by namespace id */
  groups: ReadonlyMap<string, GroupAccess>;
  /** Set when the caller came with a viewer token: only this study (in this namespace) is visible. */
  studyScope?: string;
}

export const ALL_PERMISSION_SET: ReadonlySet<Permission> = new Set(ALL_PERMISSIONS);

/**
 * What a user may do with a study shared with them personally (the copy in their personal
 * namespace): read it, download it, mark it for themselves and remove it from their inbox. Editing
 * and passing it on stay with the groups that hold the original.
 */
export const PERSONAL_NAMESPACE_PERMISSIONS: ReadonlySet<Permission> = new Set<Permission>([
  'study_view',
  'study_download',
  'study_download_iso',
  'study_star',
  'study_tag',
  'study_delete',
]);

export function toPermissionSet(names: string[]): Set<Permission> {
  return new Set(names.filter(isPermission));
}

export function permissionFlags(granted: ReadonlySet<Permission>): PermissionFlags {
  return Object.fromEntries(ALL_PERMISSIONS.map((p) => [p, granted.has(p) ? 1 : 0])) as PermissionFlags;
}

/** Namespaces whose studies the caller can see. */
export function visibleNamespaces(caller: Caller): string[] {
  return [...caller.groups.keys()];
}

export function groupOf(caller: Caller, namespaceId: string): GroupAccess | undefined {
  return caller.groups.get(namespaceId);
}

export function hasGroupPermission(caller: Caller, namespaceId: string, permission: Permission): boolean {
  return caller.groups.get(namespaceId)?.permissions.has(permission) ?? false;
}

export function hasAccountPermission(caller: Caller, accountId: string, permission: Permission): boolean {
  return caller.accounts.get(accountId)?.permissions.has(permission) ?? false;
}

export function isAccountAdmin(caller: Caller, accountId: string): boolean {
  return caller.accounts.get(accountId)?.admin ?? false;
}

interface StudyForPolicy extends LockedStudy {
  namespace_id: string;
  deleted: number | null;
}

/**
 * The study's own permissions object: the flags of its group, narrowed by the study's state. A
 * study locked by someone else (a live lock) cannot be edited, and a deleted one can only be viewed or restored.
 */
export function studyPermissions(caller: Caller, study: StudyForPolicy): StudyPermissionFlags {
  const granted = caller.groups.get(study.namespace_id)?.permissions ?? new Set<Permission>();
  const lockedByOther = isLockedByOther(study, caller.user.uuid);
  const flags = {} as StudyPermissionFlags;
  for (const p of STUDY_PERMISSIONS) {
    let allowed = granted.has(p);
    if (allowed && lockedByOther && (p === 'study_edit' || p === 'study_delete')) allowed = false;
    if (allowed && study.deleted !== null && !KEPT_WHEN_DELETED.has(p)) allowed = false;
    flags[p] = allowed ? 1 : 0;
  }
  return flags;
}

const KEPT_WHEN_DELETED: ReadonlySet<StudyPermission> = new Set(['study_view', 'study_delete']);

/**
 * May the caller see the account's destinations? Its admins, and whoever may search one
 * (destination_search) or push to one (study_push) in a group of that account. Managing them is
 * the admins' alone (isAccountAdmin).
 */
export function mayListDestinations(caller: Caller, accountId: string): boolean {
  if (isAccountAdmin(caller, accountId)) return true;
  for (const group of caller.groups.values()) {
    if (group.accountId !== accountId) continue;
    if (group.permissions.has('destination_search') || group.permissions.has('study_push')) return true;
  }
  return false;
}
