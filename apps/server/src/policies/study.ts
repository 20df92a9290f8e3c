import type { StudyPermission, StudyPermissionFlags } from '@imaging-inbox/contract';
import { STUDY_PERMISSIONS } from '@imaging-inbox/contract';
import { DomainError, notFound, notPermitted } from '../domain/errors.js';
import type { Caller } from './access.js';
import { hasGroupPermission } from './access.js';
import { isAccountAdmin } from './accounts.js';
import type { LockedStudy } from './study-lock.js';
import { isLockedByOther } from './study-lock.js';

/** What the policy needs to know of a study. */
export interface StudyForPolicy extends LockedStudy {
  account_id: string;
  namespace_id: string;
  study_uid: string;
  deleted: number | null;
}

/**
 * Namespaces whose studies the caller may read (`study_view`), optionally of one account: what
 * search, QIDO-RS, study/exists and tag suggestions look in. A viewer token's caller holds only the
 * token's namespace.
 */
export function viewableNamespaces(caller: Caller, accountId?: string): string[] {
  return [...caller.groups.values()]
    .filter((g) => g.permissions.has('study_view') && (accountId === undefined || g.accountId === accountId))
    .map((g) => g.namespaceId);
}

/**
 * Can the caller see this study at all: `study_view` in its namespace and, for a viewer token, the
 * token's study. A deleted study is seen (to restore it, or read its History) unless the question
 * hides deleted studies.
 */
export function canSeeStudy(
  caller: Caller,
  study: StudyForPolicy,
  deleted: 'visible' | 'hidden' = 'visible',
): boolean {
  if (!hasGroupPermission(caller, study.namespace_id, 'study_view')) return false;
  if (caller.studyScope !== undefined && caller.studyScope !== study.study_uid) return false;
  return deleted === 'visible' || study.deleted === null;
}

const KEPT_WHEN_DELETED: ReadonlySet<StudyPermission> = new Set(['study_view', 'study_delete']);

/**
 * The study's own permissions object: the flags of its group, narrowed by the study's state. A
 * study locked by someone else (a live lock) cannot be edited or deleted, and a deleted one can
 * only be viewed or restored. The object is shared by every study of the same group and state (a
 * page of 50 studies needs a few), so it is frozen.
 */
export function studyPermissions(caller: Caller, study: StudyForPolicy): Readonly<StudyPermissionFlags> {
  const granted = caller.groups.get(study.namespace_id)?.permissions ?? NOTHING_GRANTED;
  const lockedByOther = isLockedByOther(study, caller.user.uuid);
  const deleted = study.deleted !== null;
  const state = (lockedByOther ? 1 : 0) + (deleted ? 2 : 0);
  let byState = flagsByGrant.get(granted);
  if (!byState) flagsByGrant.set(granted, (byState = []));
  return (byState[state] ??= permissionFlags(granted, lockedByOther, deleted));
}

const NOTHING_GRANTED: ReadonlySet<string> = new Set();

/** The flags of each granted set (one per membership, made per request) by study state. */
const flagsByGrant = new WeakMap<ReadonlySet<string>, Readonly<StudyPermissionFlags>[]>();

function permissionFlags(
  granted: ReadonlySet<string>,
  lockedByOther: boolean,
  deleted: boolean,
): Readonly<StudyPermissionFlags> {
  const flags = {} as StudyPermissionFlags;
  for (const p of STUDY_PERMISSIONS) {
    let allowed = granted.has(p);
    if (allowed && lockedByOther && (p === 'study_edit' || p === 'study_delete')) allowed = false;
    if (allowed && deleted && !KEPT_WHEN_DELETED.has(p)) allowed = false;
    flags[p] = allowed ? 1 : 0;
  }
  return Object.freeze(flags);
}

/** What one call asks of a study, beyond seeing it. */
export interface StudyNeed {
  /**
   * Permissions the call needs, in the order they are refused. Judged on the study's permissions
   * object (narrowed by lock and deletion), or with `on: 'group'` on its group's flags alone (the
   * edits whose own rules answer for the lock: LOCKED rather than NOT_PERMITTED).
   */
  permissions?: readonly StudyPermission[];
  on?: 'study' | 'group';
  /** A deleted study: seen (the default), not found, or refused (NOT_PERMITTED) after the permissions. */
  deleted?: 'visible' | 'hidden' | 'refused';
  /** A study locked by someone else (a live lock) answers LOCKED. */
  unlocked?: boolean;
  /** The time the lock is judged at (a service's clock); now by default. */
  now?: number;
  /** Only an admin of the study's account (breaking someone's lock): NOT_PERMITTED for anyone else. */
  accountAdmin?: boolean;
  /** The refusal for a study the caller cannot see; NOT_FOUND `study`, the same as a made-up id. */
  unseen?: () => DomainError;
}

/**
 * The one answer to "may this caller do this to this study": the study (for chaining) or the
 * refusal. A study the caller cannot see, or none at all, is the same NOT_FOUND, so a refusal never
 * tells that a study exists.
 */
export function requireStudy<T extends StudyForPolicy>(
  caller: Caller,
  study: T | undefined,
  need: StudyNeed = {},
): T {
  const deleted = need.deleted === 'hidden' ? 'hidden' : 'visible';
  if (!study || !canSeeStudy(caller, study, deleted)) throw need.unseen?.() ?? notFound('study');
  const flags = need.on === 'group' ? undefined : studyPermissions(caller, study);
  for (const p of need.permissions ?? []) {
    const allowed = flags ? flags[p] === 1 : hasGroupPermission(caller, study.namespace_id, p);
    if (!allowed) throw notPermitted(p);
  }
  if (need.accountAdmin && !isAccountAdmin(caller, study.account_id)) throw notPermitted('account admin');
  if (need.deleted === 'refused' && study.deleted !== null) {
    throw notPermitted(need.permissions?.[0] ?? 'study');
  }
  if (need.unlocked && isLockedByOther(study, caller.user.uuid, need.now)) {
    throw new DomainError('LOCKED');
  }
  return study;
}

/** A yes/no form of requireStudy, for answers that list what a caller may do. */
export function mayOnStudy(caller: Caller, study: StudyForPolicy, need: StudyNeed): boolean {
  try {
    requireStudy(caller, study, need);
    return true;
  } catch {
    return false;
  }
}
