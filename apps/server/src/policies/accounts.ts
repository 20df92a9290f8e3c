import type { Permission } from '@imaging-inbox/contract';
import { notFound } from '../domain/errors.js';
import type { AccountAccess, Caller } from './access.js';

/** The account a call names, if the caller belongs to it; another account answers NOT_FOUND (`what`). */
export function requireAccountMember(caller: Caller, accountId: string, what = 'account'): AccountAccess {
  const account = caller.accounts.get(accountId);
  if (!account) throw notFound(what);
  return account;
}

export function isAccountAdmin(caller: Caller, accountId: string): boolean {
  return caller.accounts.get(accountId)?.admin ?? false;
}

/**
 * Administration of an account (its DICOM nodes, its destinations): its admins only. Anyone else,
 * a member included, gets the NOT_FOUND of a made-up object (`what`).
 */
export function requireAccountAdmin(caller: Caller, accountId: string, what = 'account'): void {
  if (!isAccountAdmin(caller, accountId)) throw notFound(what);
}

/** An object of an account (a DICOM node…) its admins manage; for anyone else it is not found. */
export function requireAdministered<T extends { account_id: string }>(
  caller: Caller,
  row: T | undefined,
  what: string,
): T {
  if (!row || !isAccountAdmin(caller, row.account_id)) throw notFound(what);
  return row;
}

export function hasAccountPermission(caller: Caller, accountId: string, permission: Permission): boolean {
  return caller.accounts.get(accountId)?.permissions.has(permission) ?? false;
}

/**
 * The permissions the caller holds in a namespace (session/permissions): a group's, their personal
 * one included, or an account's when the id is the account's own namespace or its uuid (`accounts`:
 * the caller's accounts); undefined when they are not in it.
 */
export function grantedIn(
  caller: Caller,
  namespaceId: string,
  accounts: readonly { uuid: string; namespace_id: string }[],
): ReadonlySet<Permission> | undefined {
  const group = caller.groups.get(namespaceId);
  if (group) return group.permissions;
  const account = accounts.find((a) => a.namespace_id === namespaceId || a.uuid === namespaceId);
  return account ? caller.accounts.get(account.uuid)?.permissions : undefined;
}
