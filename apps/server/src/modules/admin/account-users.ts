import type { Permission } from '@imaging-inbox/contract';
import { notFound, notPermitted } from '../../domain/errors.js';
import type { Caller } from '../../policies/access.js';
import { isAccountAdmin } from '../../policies/accounts.js';

/**
 * Administration of an account's users: seeing them (account_user_view or account_user_edit),
 * changing, enabling or removing them (account_user_edit), inviting new ones (account_user_invite
 * or account_user_edit). An account admin holds every permission. A member who lacks the permission
 * is refused (they know the account); anyone else gets the NOT_FOUND of a made-up account.
 */
export type AccountUserAction = 'view' | 'edit' | 'invite';

const GRANTED_BY: Record<AccountUserAction, readonly Permission[]> = {
  view: ['account_user_view', 'account_user_edit'],
  edit: ['account_user_edit'],
  invite: ['account_user_invite', 'account_user_edit'],
};

export function mayOnAccountUsers(caller: Caller, accountId: string, action: AccountUserAction): boolean {
  const account = caller.accounts.get(accountId);
  return !!account && GRANTED_BY[action].some((p) => account.permissions.has(p));
}

/** The account whose users a call reads or changes: NOT_FOUND `account` for outsiders, NOT_PERMITTED for members who may not. */
export function requireAccountUsers(caller: Caller, accountId: string, action: AccountUserAction): void {
  if (!caller.accounts.has(accountId)) throw notFound('account');
  if (!mayOnAccountUsers(caller, accountId, action)) throw notPermitted(`account_user_${action}`);
}

/**
 * The admin role is the admins' to give and take: only an account admin may make someone an admin,
 * or change, disable or remove one, so holding account_user_edit or account_user_invite never
 * leads to holding every permission.
 */
export function requireMayTouchAdmin(caller: Caller, accountId: string, adminInvolved: boolean): void {
  if (adminInvolved && !isAccountAdmin(caller, accountId)) throw notPermitted('admin');
}

/**
 * user/enable names a user, not an account: the caller may enable or disable them when they edit
 * the users of an account the user belongs to (`accountsOfUser`). Those accounts are answered;
 * a user the caller may not manage is NOT_FOUND, as a made-up one.
 */
export function requireManagedUser(caller: Caller, accountsOfUser: readonly string[]): string[] {
  const managed = accountsOfUser.filter((a) => mayOnAccountUsers(caller, a, 'edit'));
  if (!managed.length) throw notFound('user');
  return managed;
}
