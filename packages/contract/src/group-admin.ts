import { z } from 'zod';
import { optionalText, pageParams, requiredText } from './api-params.js';
import { GROUP_TYPES } from './groups.js';
import type { GroupType } from './groups.js';
import { MAX_PAGE_ROWS } from './limits.js';
import type { Permission } from './permissions.js';
import type { RoleRef } from './roles.js';

/** Administration of an account's groups (account/group/list, group/add|set|delete, group/user/*). */

/** A group's longest name. */
export const GROUP_NAME_MAX_LENGTH = 100;

/** A group of the account as its administrators see it. */
export interface AdminGroup {
  uuid: string;
  account_id: string;
  namespace_id: string;
  name: string;
  type: GroupType;
  members: number;
  /** Studies it holds (deleted ones awaiting purge included): a group holding any cannot be deleted. */
  studies: number;
}

export interface AdminGroupListAnswer {
  groups: AdminGroup[];
  page: { number: number; rows: number; more: 0 | 1 };
}

/** A member of a group with the role they hold there. */
export interface GroupMember {
  uuid: string;
  name: string;
  email: string;
  /** null: the member keeps the permissions written on their membership. */
  role: RoleRef | null;
  /** What the membership grants now. */
  permissions: Permission[];
}

export interface GroupMemberListAnswer {
  users: GroupMember[];
  page: { number: number; rows: number; more: 0 | 1 };
}

const groupName = () =>
  requiredText().max(GROUP_NAME_MAX_LENGTH, `must be at most ${GROUP_NAME_MAX_LENGTH} characters`);

/** CLOUD, GATEKEEPER or LIBRARY, any case. */
const groupTypeParam = () =>
  // Ambra's group/add has no type: its groups are plain libraries, the default here too.
  optionalText().transform((raw, ctx): GroupType => {
    const type = (raw ?? 'LIBRARY').toUpperCase();
    if ((GROUP_TYPES as readonly string[]).includes(type)) return type as GroupType;
    ctx.issues.push({ code: 'custom', message: `must be one of ${GROUP_TYPES.join(', ')}`, input: raw });
    return z.NEVER;
  });

/** account/group/list: every group of account `uuid` (group_view or group_edit). */
export const accountGroupListRequest = z.object({ uuid: requiredText(), ...pageParams(MAX_PAGE_ROWS) });

/** group/add: a new group of account `account_id`. */
export const groupAddRequest = z.object({
  account_id: requiredText(),
  name: groupName(),
  type: groupTypeParam(),
});

/** group/set: renames group `uuid`. */
export const groupSetRequest = z.object({ uuid: requiredText(), name: groupName() });

/** group/user/list: the members of group `uuid`. */
export const groupUserListRequest = z.object({ uuid: requiredText(), ...pageParams(MAX_PAGE_ROWS) });

/**
 * group/user/add: makes account member `user_id` a member of group `uuid` holding role `role_id`,
 * or changes the role of a member already in it.
 */
export const groupUserAddRequest = z.object({
  uuid: requiredText(),
  user_id: requiredText(),
  role_id: requiredText(),
});

/** group/user/delete: takes `user_id` out of group `uuid`. */
export const groupUserDeleteRequest = z.object({ uuid: requiredText(), user_id: requiredText() });
