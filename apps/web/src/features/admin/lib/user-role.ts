import type { AccountUser } from '@imaging-inbox/contract';

/** The role picker's value: the admin role, no role, or a role uuid. */
export const ADMIN_CHOICE = 'admin';
export const NO_ROLE_CHOICE = '';

/** What the users list shows in its Role column: Admin, the account role's name, or User. */
export function roleLabel(user: Pick<AccountUser, 'role' | 'account_role'>): string {
  if (user.role === 'admin') return 'Admin';
  return user.account_role?.name ?? 'User';
}

export function roleChoiceOf(user: Pick<AccountUser, 'role' | 'account_role'>): string {
  if (user.role === 'admin') return ADMIN_CHOICE;
  return user.account_role?.uuid ?? NO_ROLE_CHOICE;
}

/** account/user/set (or add) parameters for a picked choice: the admin flag and the account role. */
export function roleParams(choice: string): { role: 'admin' | 'user'; role_id?: string } {
  if (choice === ADMIN_CHOICE) return { role: 'admin' };
  return { role: 'user', role_id: choice };
}
