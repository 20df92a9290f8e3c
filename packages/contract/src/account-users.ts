import { z } from 'zod';
import { choiceParam, flagParam, optionalText, pageParams, rawText, requiredText } from './api-params.js';
import { MAX_EMAIL_LENGTH } from './limits.js';
import type { RoleRef } from './roles.js';
import { roleIdParam } from './roles.js';

/** Users of an account as its administrators see and manage them (account/user/*, user/enable). */

/** The page sizes the web's users list offers; the first is the default (the API takes any, 1 to MAX_PAGE_ROWS). */
export const USER_PAGE_SIZES = [10, 25, 50, 100] as const;
export type UserPageSize = (typeof USER_PAGE_SIZES)[number];

/** The columns the users list sorts by. */
export const USER_SORT_FIELDS = ['name', 'email', 'last_login', 'role'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

/** The account roles a member holds: an admin holds every permission of the account. */
export const ACCOUNT_ROLES = ['admin', 'user'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

/** A user's longest name (account/user/set). */
export const USER_NAME_MAX_LENGTH = 200;

/** One user of an account, as account/user/list and account/user/get answer. */
export interface AccountUser {
  uuid: string;
  name: string;
  first_name: string;
  last_name: string;
  email: string;
  /** Epoch milliseconds of the last sign-in; null when they never signed in. */
  last_login: number | null;
  role: AccountRole;
  /** The role whose permissions the user holds on the account (an admin holds every one anyway). */
  account_role: RoleRef | null;
  /** 0 once disabled (they cannot sign in) or suspended in this account (it grants them nothing). */
  enabled: 0 | 1;
  /**
   * 1 until they take up the invitation: a person who already had an address accepts it, a new
   * one chooses a password. Until a known person accepts, the account sees only the address and
   * the name its inviter typed (decision 0052).
   */
  invited: 0 | 1;
  /** 1 when this account suspended the membership (user/enable with disable=1 on someone from another home). */
  suspended: 0 | 1;
  /** 1 when this account may change the name: the person's home account, or while the invitation is pending. */
  renamable: 0 | 1;
}

/** An invitation waiting for the signed-in user's answer (account/invitation/list). */
export interface AccountInvitation {
  account_id: string;
  /** The inviting account's name. */
  name: string;
}

/** account/invitation/accept and account/invitation/decline: the invitation of account `uuid`. */
export const accountInvitationRequest = z.object({ uuid: requiredText() });

export interface AccountUserPage {
  users: AccountUser[];
  page: { number: number; rows: number; total: number; more: 0 | 1 };
}

const sortParam = () =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const text = raw?.trim();
      if (!text) return { field: 'name' as UserSortField, direction: 'asc' as const };
      const match = /^([a-z_]+)-(asc|desc)$/.exec(text);
      const field = match?.[1];
      if (!match || !(USER_SORT_FIELDS as readonly string[]).includes(field!)) {
        ctx.issues.push({
          code: 'custom',
          message: `must be one of ${USER_SORT_FIELDS.join(', ')} followed by -asc or -desc`,
          input: raw,
        });
        return z.NEVER;
      }
      return { field: field as UserSortField, direction: match[2] as 'asc' | 'desc' };
    });

/** account/user/list: the users of account `uuid`, `filter` matching name or e-mail, sorted and paged. */
export const accountUserListRequest = z.object({
  uuid: requiredText(),
  filter: optionalText(),
  sort_by: sortParam(),
  // Any size from 1 (Ambra's clients ask their own); the web offers USER_PAGE_SIZES only.
  ...pageParams(USER_PAGE_SIZES[0]),
});

/** account/user/get and account/user/delete: one user (`user_id`) of account `uuid`. */
export const accountUserRequest = z.object({ uuid: requiredText(), user_id: requiredText() });

/**
 * account/user/set: a user's name, admin flag (`role`) and/or account role (`role_id`, a role of
 * the account; blank: none) in account `uuid`.
 */
export const accountUserSetRequest = z.object({
  uuid: requiredText(),
  user_id: requiredText(),
  name: rawText(),
  role: choiceParam(ACCOUNT_ROLES, `must be one of ${ACCOUNT_ROLES.join(', ')}`),
  role_id: roleIdParam(),
});

/**
 * account/user/add: invites `email` to account `uuid` with `role` (user unless said), an optional
 * account role (`role_id`) and an optional `name`. A new address gets a one-time link to choose a password.
 */
export const accountUserAddRequest = z.object({
  uuid: requiredText(),
  email: requiredText().pipe(
    z
      .email({ error: 'must be an e-mail address' })
      .max(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters`),
  ),
  name: rawText(),
  role: choiceParam(ACCOUNT_ROLES, `must be one of ${ACCOUNT_ROLES.join(', ')}`),
  role_id: roleIdParam(),
});

/** How long an invitation's link to choose a password stays valid. */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60_000;

/**
 * user/enable: enables user `uuid`, or disables them with disable=1. On a person whose home is
 * another account it suspends or resumes only their membership in the caller's accounts.
 */
export const userEnableRequest = z.object({ uuid: requiredText(), disable: flagParam() });

/** What the users page tells after delete, enable and disable (SPEC.md: success and failure messages). */
export const USER_ADMIN_MESSAGES = {
  deleted: 'User deleted successfully',
  deleteFailed: 'Failed to delete user',
  enabled: 'Users enabled successfully',
  enableFailed: 'Failed to enable users',
  disabled: 'Users disabled successfully',
  disableFailed: 'Failed to disable users',
  invited: 'Invitation sent',
  saved: 'User saved',
} as const;

/**
 * The users page's Enable and Disable buttons (SPEC.md): enable needs at least one disabled user
 * selected, disable at least one enabled one.
 */
export function userSelectionActions(selected: readonly Pick<AccountUser, 'enabled'>[]): {
  enable: boolean;
  disable: boolean;
} {
  return {
    enable: selected.some((u) => u.enabled === 0),
    disable: selected.some((u) => u.enabled === 1),
  };
}
