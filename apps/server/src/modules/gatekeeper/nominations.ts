import { notPermitted } from '../../domain/errors.js';
import type { Caller } from '../../policies/access.js';
import type { StudyForPolicy } from '../../policies/study.js';
import { requireStudy } from '../../policies/study.js';

/**
 * Nominating a study to a gatekeeper group: `study_share` on the study (not a deleted one), and the
 * gatekeeper in its cloud group's promote list (`promoteTo`); any other gatekeeper is NOT_PERMITTED.
 */
export function requireNominator<T extends StudyForPolicy>(
  caller: Caller,
  study: T | undefined,
  promoteTo: (namespaceId: string) => Promise<readonly string[]>,
  gatekeeperId: string,
): Promise<T> {
  const row = requireStudy(caller, study, { permissions: ['study_share'], deleted: 'refused' });
  return promoteTo(row.namespace_id).then((list) => {
    if (!list.includes(gatekeeperId)) throw notPermitted('gatekeeper');
    return row;
  });
}

/** Cancelling a nomination: the nominator's `study_share` on the study. */
export function requireNominationOwner<T extends StudyForPolicy>(caller: Caller, study: T | undefined): T {
  return requireStudy(caller, study, { permissions: ['study_share'] });
}

/**
 * A gatekeeper's decision on a nomination (reject; process): `study_approve` on its copy in the
 * gatekeeper group, not a deleted one.
 */
export function requireGatekeeperDecision<T extends StudyForPolicy>(caller: Caller, study: T | undefined): T {
  return requireStudy(caller, study, { permissions: ['study_approve'], deleted: 'refused' });
}

/**
 * Processing a nomination (study/process): deciding on it (`study_approve`) and sending it to a
 * destination (`study_push`), both on its copy in the gatekeeper group, not a deleted one.
 */
export function requireGatekeeperProcess<T extends StudyForPolicy>(caller: Caller, study: T | undefined): T {
  return requireStudy(caller, study, { permissions: ['study_approve', 'study_push'], deleted: 'refused' });
}
