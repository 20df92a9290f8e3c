import { notFound } from '../../domain/errors.js';
import type { Caller, GroupAccess } from '../../policies/access.js';
import { isAccountAdmin } from '../../policies/accounts.js';
import { requireGroup } from '../../policies/groups.js';

/**
 * PACS destinations of an account: managed by its admins, used (listed, searched, pushed to) by
 * whoever searches or pushes in one of its groups.
 */

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

/**
 * The group a destination's search results are retrieved into: a group of the destination's
 * account where the caller holds destination_search. Anything else is NOT_FOUND `namespace`, as a
 * made-up group is.
 */
export function requireSearchTarget(
  caller: Caller,
  namespaceId: string,
  destinationAccountId: string,
): GroupAccess {
  const group = requireGroup(caller, namespaceId, 'destination_search', { lacking: 'hidden' });
  if (group.accountId !== destinationAccountId) throw notFound('namespace');
  return group;
}

/**
 * The destination a worklist search (destination/search/mwl) asks, for a group where the caller
 * holds destination_search_mwl (else NOT_FOUND `namespace`, as a made-up group is): one of that
 * group's account, else NOT_FOUND `destination`, as a made-up one is.
 */
export function requireWorklistSearch<T extends { account_id: string }>(
  caller: Caller,
  namespaceId: string,
  destination: T | undefined,
): T {
  const group = requireGroup(caller, namespaceId, 'destination_search_mwl', { lacking: 'hidden' });
  if (!destination || destination.account_id !== group.accountId) throw notFound('destination');
  return destination;
}

/** A study search (and its results, and retrieves from it) the caller may follow: destination_search in its group. */
export function requireVisibleSearch<T extends { namespace_id: string; kind: string }>(
  caller: Caller,
  search: T | undefined,
): T {
  if (
    !search ||
    search.kind !== 'study' ||
    !caller.groups.get(search.namespace_id)?.permissions.has('destination_search')
  ) {
    throw notFound('destination_search');
  }
  return search;
}

/**
 * A search whose progress and results the caller may read (destination/search/get): any it may
 * retrieve from, and a gatekeeper's own Search Patient, while it still approves in that group
 * (the search only reads the group's query destination; retrieving needs destination_search).
 * A worklist search is read by whoever holds destination_search_mwl in its group.
 */
export function requireFollowedSearch<T extends { namespace_id: string; user_id: string; kind: string }>(
  caller: Caller,
  search: T | undefined,
): T {
  const permissions = search && caller.groups.get(search.namespace_id)?.permissions;
  if (search?.kind === 'mwl') {
    if (!permissions?.has('destination_search_mwl')) throw notFound('destination_search');
    return search;
  }
  const own = search?.user_id === caller.user.uuid && permissions?.has('study_approve');
  if (!search || !(permissions?.has('destination_search') || own)) throw notFound('destination_search');
  return search;
}

/**
 * May the caller let other accounts register a destination's PACS target (shared_target)? Only a
 * system administrator: a PACS belongs to one account unless the operator decides otherwise.
 */
export function maySetSharedTarget(caller: Caller): boolean {
  return Number(caller.user.sysadmin) === 1;
}
