import type { GroupType, Permission } from '@imaging-inbox/contract';
import { notFound, notPermitted } from '../domain/errors.js';
import type { Caller, GroupAccess } from './access.js';
import { mayAdminister } from './administration.js';

/**
 * The group (namespace) a call names, if the caller belongs to it; a group they are not in answers
 * NOT_FOUND `namespace`, as a made-up id does. With `permission`, lacking it answers NOT_PERMITTED,
 * or NOT_FOUND too where even telling the group exists is more than the caller may know
 * (`lacking: 'hidden'`).
 */
export function requireGroup(
  caller: Caller,
  namespaceId: string,
  permission?: Permission,
  options: { lacking?: 'refused' | 'hidden'; what?: string } = {},
): GroupAccess {
  const group = caller.groups.get(namespaceId);
  const what = options.what ?? 'namespace';
  if (!group) throw notFound(what);
  if (permission && !group.permissions.has(permission)) {
    throw options.lacking === 'hidden' ? notFound(what) : notPermitted(permission);
  }
  return group;
}

/** The caller's group with this group uuid (group/get), or NOT_FOUND `group`. */
export function requireGroupByUuid(caller: Caller, groupId: string): GroupAccess {
  const group = [...caller.groups.values()].find((g) => g.groupId === groupId);
  if (!group) throw notFound('group');
  return group;
}

/**
 * The group group/get answers: the caller's own (with what their membership grants), or, for who
 * administers the groups of its account (group_view or group_edit) without being in it, any group
 * of that account, granting nothing in it. Anyone else gets the NOT_FOUND `group` of a made-up id,
 * so a member learns nothing of groups they may not administer.
 */
export function requireReadableGroup(
  caller: Caller,
  groupId: string,
  row: { uuid: string; account_id: string; namespace_id: string; name: string; type: GroupType } | undefined,
): GroupAccess {
  const own = [...caller.groups.values()].find((g) => g.groupId === groupId);
  if (own) return own;
  if (!row || row.uuid !== groupId || !mayAdminister(caller, row.account_id, 'group', 'view')) {
    throw notFound('group');
  }
  return {
    groupId: row.uuid,
    accountId: row.account_id,
    namespaceId: row.namespace_id,
    name: row.name,
    type: row.type,
    permissions: new Set(),
  };
}

/** The caller's groups granting a permission (optionally in one account). */
export function groupsWith(caller: Caller, permission: Permission, accountId?: string): GroupAccess[] {
  return [...caller.groups.values()].filter(
    (g) => g.permissions.has(permission) && (accountId === undefined || g.accountId === accountId),
  );
}

/** May the caller upload into this group (browser upload, STOW-RS, wrapping, upload sessions)? */
export function mayUploadTo(caller: Caller, namespaceId: string): boolean {
  return caller.groups.get(namespaceId)?.permissions.has('study_upload') ?? false;
}

/** The group an upload goes to: NOT_FOUND for a group the caller is not in, NOT_PERMITTED without study_upload. */
export function requireUploadGroup(caller: Caller, namespaceId: string): GroupAccess {
  return requireGroup(caller, namespaceId, 'study_upload');
}

/** Is the caller a member of this namespace (a group, their personal one, or an account's own)? */
export function isNamespaceMember(
  caller: Caller,
  ns: { id: string; kind: string; account_id: string },
): boolean {
  return ns.kind === 'ACCOUNT' ? caller.accounts.has(ns.account_id) : caller.groups.has(ns.id);
}

/**
 * A namespace a call about its members names (notification preferences): one the caller belongs to,
 * or one of an account where they hold `adminPermission` (to read or set a member's flags). Any
 * other is NOT_FOUND `namespace`, the answer for a missing one: a member learns nothing of the
 * groups they are not in.
 */
export function requireKnownNamespace(
  caller: Caller,
  ns: { id: string; kind: string; account_id: string },
  adminPermission: Permission,
): void {
  if (isNamespaceMember(caller, ns)) return;
  if (caller.accounts.get(ns.account_id)?.permissions.has(adminPermission)) return;
  throw notFound('namespace');
}
