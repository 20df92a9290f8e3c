import { notPermitted } from '../../domain/errors.js';
import type { Caller } from '../../policies/access.js';
import { hasAccountPermission } from '../../policies/accounts.js';

/**
 * Changing one's own share code (or its description) needs user_modify_sharecode in the account
 * whose sends it receives: a code is an address outsiders send patients' exams to, so holding
 * study_view alone must not let a user put one on their private inbox.
 */
export function requireShareCodeChange(caller: Caller, accountId: string): void {
  if (!mayChangeShareCode(caller, accountId)) throw notPermitted('user_modify_sharecode');
}

export function mayChangeShareCode(caller: Caller, accountId: string): boolean {
  return hasAccountPermission(caller, accountId, 'user_modify_sharecode');
}
