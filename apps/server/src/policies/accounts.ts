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

/** What one may do with an account's PACS destinations. */
export type DestinationAction = 'list' | 'manage';

/**
 * May the caller list (see, search or push to) or manage the account's destinations? Managing them
 * is its admins' alone; listing also belongs to whoever may search one (destination_search) or
 * push to one (study_push) in a group of that account.
 */
export function mayOnDestinations(caller: Caller, accountId: string, action: DestinationAction): boolean {
  if (isAccountAdmin(caller, accountId)) return true;
  if (action === 'manage') return false;
  for (const group of caller.groups.values()) {
    if (group.accountId !== accountId) continue;
    if (group.permissions.has('destination_search') || group.permissions.has('study_push')) return true;
  }
  return false;
}

/** The account whose destinations a call lists or adds to; NOT_FOUND `account` for a caller who may not. */
export function requireDestinationAccount(
  caller: Caller,
  accountId: string,
  action: DestinationAction,
): void {
  if (!mayOnDestinations(caller, accountId, action)) throw notFound('account');
}

/** A destination the caller may use (`list`) or manage; NOT_FOUND `destination` otherwise, as a made-up one. */
export function requireDestination<T extends { account_id: string }>(
  caller: Caller,
  row: T | undefined,
  action: DestinationAction,
): T {
  if (!row || !mayOnDestinations(caller, row.account_id, action)) throw notFound('destination');
  return row;
}
