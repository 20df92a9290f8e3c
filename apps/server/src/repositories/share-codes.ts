import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** A share code as the registry keys it: trimmed and upper case, so 'demo-hosp ' is 'DEMO-HOSP'. */
export function shareCodeKey(code: string): string {
  return code.trim().toUpperCase();
}

/**
 * Whether someone other than `namespaceId` (an account, or another namespace) holds this
 * normalised code in share_codes.
 */
export async function shareCodeHolder(
  db: Kysely<Database>,
  key: string,
  namespaceId: string | null,
): Promise<boolean> {
  const row = await db
    .selectFrom('share_codes')
    .select('namespace_id')
    .where('code', '=', key)
    .executeTakeFirst();
  return row !== undefined && (namespaceId === null || row.namespace_id !== namespaceId);
}
