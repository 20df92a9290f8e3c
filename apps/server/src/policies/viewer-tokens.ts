import type { Caller } from './access.js';

/**
 * A viewer token's caller: the user who asked for it, with their current permissions, narrowed to
 * the one namespace and study the token names. Every study question then sees only that study.
 */
export function scopedToStudy(caller: Caller, scope: { namespaceId: string; studyUid: string }): Caller {
  const group = caller.groups.get(scope.namespaceId);
  return {
    ...caller,
    groups: new Map(group ? [[scope.namespaceId, group]] : []),
    studyScope: scope.studyUid,
  };
}

/**
 * The Study Instance UID a search may match for this caller: any (undefined) for a signed-in user;
 * a viewer token's own study, or nothing at all (null) when the search asks for another one.
 */
export function searchableStudyUid(caller: Caller, asked: string | undefined): string | undefined | null {
  if (caller.studyScope === undefined) return asked;
  return asked === undefined || asked === caller.studyScope ? caller.studyScope : null;
}
