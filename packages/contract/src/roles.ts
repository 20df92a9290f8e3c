import { z } from 'zod';
import { pageParams, parseStringList, rawText, reportMissing, requiredText } from './api-params.js';
import { MAX_PAGE_ROWS } from './limits.js';
import { ALL_PERMISSIONS, isPermission } from './permissions.js';
import type { Permission } from './permissions.js';

/**
 * Roles (role/*): named permission sets of an account. A role is held by account memberships and
 * by group memberships; its holders may do what it grants at their next call after a change.
 */

/** A role's longest name. */
export const ROLE_NAME_MAX_LENGTH = 100;

export interface Role {
  uuid: string;
  account_id: string;
  name: string;
  /** In the contract's order of permission names. */
  permissions: Permission[];
  /** How many account and group memberships hold it (a held role cannot be deleted). */
  holders: number;
}

export interface RoleListAnswer {
  roles: Role[];
  page: { number: number; rows: number; more: 0 | 1 };
}

/** A role as a membership answer names it. */
export interface RoleRef {
  uuid: string;
  name: string;
}

/**
 * A list of permission names (a JSON array or comma-separated), each one the contract knows; an
 * unknown name is INVALID_FIELD `permissions` naming it. Absent stays undefined; blank is an empty
 * list (a role that grants nothing).
 */
const permissionsParam = () =>
  rawText().transform((raw, ctx): Permission[] | undefined => {
    if (raw === undefined) return undefined;
    const parsed = parseStringList(raw);
    if (!parsed.ok) {
      ctx.issues.push({ code: 'custom', message: parsed.why, input: raw });
      return z.NEVER;
    }
    const unknown = parsed.list.filter((name) => !isPermission(name));
    if (unknown.length) {
      ctx.issues.push({ code: 'custom', message: `unknown permission: ${unknown.join(', ')}`, input: raw });
      return z.NEVER;
    }
    // Declared order, each once: the stored set reads the same whatever order it was sent in.
    return ALL_PERMISSIONS.filter((p) => parsed.list.includes(p));
  });

const roleName = () =>
  requiredText().max(ROLE_NAME_MAX_LENGTH, `must be at most ${ROLE_NAME_MAX_LENGTH} characters`);

/** role/list: the roles of account `account_id`. */
export const roleListRequest = z.object({ account_id: requiredText(), ...pageParams(MAX_PAGE_ROWS) });

/** role/add: a new role of account `account_id`; `permissions` may be empty (a role that grants nothing). */
export const roleAddRequest = z.object({
  account_id: requiredText(),
  name: roleName(),
  permissions: permissionsParam().transform((list) => list ?? []),
});

/** role/set: renames role `uuid` and/or replaces its permissions (an empty value grants nothing). */
export const roleSetRequest = z
  .object({
    uuid: requiredText(),
    name: roleName().optional(),
    permissions: permissionsParam(),
  })
  .transform((p, ctx) =>
    p.name === undefined && p.permissions === undefined ? reportMissing(ctx, 'name', 'permissions') : p,
  );

/** role/get and role/delete: one role. */
export const roleRequest = z.object({ uuid: requiredText() });

/** An optional role uuid where a blank value means "no role" (null); absent stays undefined. */
export const roleIdParam = () =>
  rawText().transform((raw) => (raw === undefined ? undefined : raw.trim() || null));

export type RoleAddRequest = z.output<typeof roleAddRequest>;
export type RoleSetRequest = z.output<typeof roleSetRequest>;
