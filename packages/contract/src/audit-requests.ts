import { z } from 'zod';
import { flagParam, optionalText, pageParams, requiredText } from './api-params.js';

/**
 * Ambra's audit calls beside audit/log and audit/object (the SDK's Audit.user, Audit.account and
 * Audit.failedlogins): the account's log as audit/log reads it, narrowed to one user, whole, or to
 * its members' failed sign-ins. `reverse=1` answers newest first (as audit/object), else oldest
 * first as Ambra's default order is.
 */

/** A time bound: ms since the epoch or an ISO 8601 date-time; undefined when it is neither. */
export function parseTimeBound(raw: string): number | undefined {
  const value = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw);
  return Number.isFinite(value) ? value : undefined;
}

const auditPage = { reverse: flagParam(), ...pageParams(50, 1000) };

/** audit/account: an account's log (audit_view on it). */
export const auditAccountRequest = z.object({ account_id: requiredText(), ...auditPage });

/** audit/user: an account's log of one user's actions (audit_view on the account). */
export const auditUserRequest = z.object({
  account_id: requiredText(),
  user_id: requiredText(),
  ...auditPage,
});

/** audit/failedlogins: the failed sign-ins of an account's members, since `from_time` when given. */
export const auditFailedLoginsRequest = z.object({
  account_id: requiredText(),
  from_time: optionalText().transform((raw, ctx) => {
    if (raw === undefined) return undefined;
    const value = parseTimeBound(raw);
    if (value === undefined) {
      ctx.issues.push({ code: 'custom', message: 'must be a time (ms or ISO 8601)', input: raw });
      return z.NEVER;
    }
    return value;
  }),
  ...auditPage,
});

/** role/default/permissions: the permissions a new role gets (of account `account_id`, if given). */
export const roleDefaultPermissionsRequest = z.object({ account_id: optionalText() });
