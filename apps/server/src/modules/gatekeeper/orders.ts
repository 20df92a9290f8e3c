import type { Permission } from '@imaging-inbox/contract';
import { notFound, notPermitted } from '../../domain/errors.js';
import type { Caller, GroupAccess } from '../../policies/access.js';
import { requireGroupByUuid } from '../../policies/groups.js';

/**
 * An account's orders: read with `order_view`, written with `order_edit`, held on the account itself
 * or in any of its groups (an account admin holds both). Another account is NOT_FOUND; a member
 * lacking the permission is NOT_PERMITTED ("not permitted to view orders in this account").
 */
export type OrderPermission = Extract<Permission, 'order_view' | 'order_edit'>;

export function mayOnOrders(caller: Caller, accountId: string, permission: OrderPermission): boolean {
  const account = caller.accounts.get(accountId);
  if (account?.admin || account?.permissions.has(permission)) return true;
  for (const group of caller.groups.values()) {
    if (group.accountId === accountId && group.permissions.has(permission)) return true;
  }
  return false;
}

export function requireOrderAccount(caller: Caller, accountId: string, permission: OrderPermission): void {
  if (!caller.accounts.has(accountId)) throw notFound('account');
  if (!mayOnOrders(caller, accountId, permission)) throw notPermitted(permission);
}

/** The group whose Search Order step this is (by group uuid): `order_view` in it, else NOT_PERMITTED. */
export function requireOrderSearchGroup(caller: Caller, groupId: string): GroupAccess {
  const group = requireGroupByUuid(caller, groupId);
  if (!group.permissions.has('order_view')) throw notPermitted('order_view');
  return group;
}
