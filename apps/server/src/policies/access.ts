import type { GroupType, Permission, PermissionFlags } from '@imaging-inbox/contract';
import { ALL_PERMISSIONS, isPermission } from '@imaging-inbox/contract';
import type { UserRow } from '../repositories/users.repository.js';

export interface GroupAccess {
  groupId: string;
  accountId: string;
  namespaceId: string;
  name: string;
  type: GroupType;
  permissions: ReadonlySet<Permission>;
  /** The role the membership holds (its permissions are the role's); null without one. */
  roleId?: string | null;
}

export interface AccountAccess {
  accountId: string;
  admin: boolean;
  permissions: ReadonlySet<Permission>;
  roleId?: string | null;
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

/**
 * What a membership grants: its role's permissions as they are now when it holds a role, else the
 * permissions written on the membership. The one place roles turn into permissions.
 */
export function membershipPermissions(row: {
  permissions: string[];
  role_permissions: string[] | null;
}): Set<Permission> {
  return toPermissionSet(row.role_permissions ?? row.permissions);
}

/** Does the caller hold this role, on an account or in a group? */
export function holdsRole(caller: Caller, roleId: string): boolean {
  return [...caller.accounts.values(), ...caller.groups.values()].some((m) => m.roleId === roleId);
}

/** Does the caller's group (namespace) grant this permission? (An account admin's groups grant all.) */
export function hasGroupPermission(caller: Caller, namespaceId: string, permission: Permission): boolean {
  return caller.groups.get(namespaceId)?.permissions.has(permission) ?? false;
}
