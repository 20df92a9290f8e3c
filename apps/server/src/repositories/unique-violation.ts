/**
 * Did a write fail because a row with the same unique key exists (SQLite's UNIQUE or PRIMARY KEY
 * constraint, PostgreSQL's 23505)? Two requests racing past the same "not there yet" check end
 * here, and the loser gets the answer the check would have given.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Did a delete fail because other rows still point at the row (SQLite's FOREIGN KEY, PostgreSQL's 23503)? */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
