import type { Permission } from '@imaging-inbox/contract';
import { DomainError, notFound, notPermitted } from '../domain/errors.js';
import type { Caller } from './access.js';
import { isAccountAdmin } from './accounts.js';

/**
 * Administration of an account's roles, groups and routing rules, and reading its audit log:
 * seeing them needs the area's view or edit permission on the account, changing them its edit
 * permission (an account admin holds all; the audit log is only read, with audit_view). A member
 * who lacks it is refused (they know the account); anyone else gets the NOT_FOUND of a made-up
 * account. Webhooks are the admins' alone (requireAccountAdmin). The account's label overrides are
 * read by every member and changed with label_edit.
 */
export type AdminArea = 'role' | 'group' | 'route' | 'audit' | 'label' | 'anonymization';
export type AdminAction = 'view' | 'edit';

const GRANTED_BY: Record<AdminArea, Record<AdminAction, readonly Permission[]>> = {
  role: { view: ['role_view', 'role_edit'], edit: ['role_edit'] },
  group: { view: ['group_view', 'group_edit'], edit: ['group_edit'] },
  route: { view: ['route_view', 'route_edit'], edit: ['route_edit'] },
  audit: { view: ['audit_view'], edit: [] },
  // Every member reads the account's labels (the web app shows them): only changing them is guarded.
  label: { view: ['label_edit'], edit: ['label_edit'] },
  // De-identification profiles (decision 0067): what leaves the account de-identified is theirs to set.
  anonymization: { view: ['anonymization_view', 'anonymization_edit'], edit: ['anonymization_edit'] },
};

export function mayAdminister(
  caller: Caller,
  accountId: string,
  area: AdminArea,
  action: AdminAction,
): boolean {
  const account = caller.accounts.get(accountId);
  return !!account && GRANTED_BY[area][action].some((p) => account.permissions.has(p));
}

export function requireAdministration(
  caller: Caller,
  accountId: string,
  area: AdminArea,
  action: AdminAction,
): void {
  if (!caller.accounts.has(accountId)) throw notFound('account');
  if (!mayAdminister(caller, accountId, area, action)) throw notPermitted(`${area}_${action}`);
}

/** An object of an account (a routing rule) read or changed by its administrators; outsiders do not find it (`what`). */
export function requireAdministeredIn<T extends { account_id: string }>(
  caller: Caller,
  row: T | undefined,
  area: AdminArea,
  action: AdminAction,
  what: string,
): T {
  if (!row || !caller.accounts.has(row.account_id)) throw notFound(what);
  requireAdministration(caller, row.account_id, area, action);
  return row;
}

/**
 * What a membership may be given is not the holder's to raise: a caller who is not an account admin
 * may not change their own memberships' roles, nor change or delete a role they hold, so role_edit,
 * group_edit or account_user_edit never lead to holding more.
 */
export function requireNotOwnGrant(caller: Caller, accountId: string, ownGrant: boolean): void {
  if (ownGrant && !isAccountAdmin(caller, accountId)) throw notPermitted('own_role');
}

/**
 * What the caller holds in an account: every permission for its admin; else what their account
 * membership grants and what each of their groups of the account grants (a personal 'Shared with
 * me' namespace, whose group is its own namespace, grants nothing to pass on).
 */
export function heldInAccount(caller: Caller, accountId: string): ReadonlySet<Permission> {
  const account = caller.accounts.get(accountId);
  if (!account) return new Set();
  if (account.admin) return account.permissions;
  const held = new Set(account.permissions);
  for (const group of caller.groups.values()) {
    if (group.accountId !== accountId || group.groupId === group.namespaceId) continue;
    for (const permission of group.permissions) held.add(permission);
  }
  return held;
}

/**
 * Nobody grants a permission they do not hold (decision 0052): a role made or changed, or a role
 * given to a member (on the account or in a group), must not carry a permission beyond the
 * caller's own in the account. An account admin holds them all. The refusal names what is beyond.
 */
export function requireWithinOwnGrant(
  caller: Caller,
  accountId: string,
  permissions: readonly string[],
): void {
  if (isAccountAdmin(caller, accountId)) return;
  const held: ReadonlySet<string> = heldInAccount(caller, accountId);
  const beyond = [...new Set(permissions)].filter((p) => !held.has(p)).sort();
  if (beyond.length)
    throw new DomainError('NOT_PERMITTED', 'beyond_own_permissions', { permissions: beyond });
}

/**
 * The account's own settings (its default language): its admins change them. A member who is not
 * an admin is refused (they read the account with account/get); anyone else gets NOT_FOUND.
 */
export function requireAccountSettingsEdit(caller: Caller, accountId: string): void {
  if (!caller.accounts.has(accountId)) throw notFound('account');
  if (!isAccountAdmin(caller, accountId)) throw notPermitted('account_edit');
}
