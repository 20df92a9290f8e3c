/**
 * A study lock (study/lock) keeps others from editing while one user edits. It lapses
 * LOCK_TTL_MS after it was taken or last renewed (a study/lock by the holder renews it), so a
 * browser that died mid-edit leaves the study editable again after a while, not for good; an
 * account admin may also break it at once (study/lock/break, audited).
 */
export const LOCK_TTL_MS = 15 * 60_000;

export interface LockedStudy {
  is_locked: number;
  locked_by: string | null;
  locked_at: number | null;
}

/** The user holding a live lock on the study, or null when it is free or the lock has lapsed. */
export function lockHolder(study: LockedStudy, now: number = Date.now()): string | null {
  if (study.is_locked !== 1 || study.locked_by === null) return null;
  if (study.locked_at === null || study.locked_at + LOCK_TTL_MS <= now) return null;
  return study.locked_by;
}

/** Does someone other than `userId` hold a live lock on the study? */
export function isLockedByOther(study: LockedStudy, userId: string, now: number = Date.now()): boolean {
  const holder = lockHolder(study, now);
  return holder !== null && holder !== userId;
}
