import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Whether any instance or attachment row still points at a blob file, and the blobs whose removal
 * waits for their grace period to end (`blob_removals`).
 */
export class BlobReferencesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async isReferenced(key: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('instances')
      .select('uuid')
      .where('blob_key', '=', key)
      .limit(1)
      .executeTakeFirst();
    if (row) return true;
    const attachment = await this.db
      .selectFrom('attachments')
      .select('id')
      .where('blob_key', '=', key)
      .limit(1)
      .executeTakeFirst();
    return attachment !== undefined;
  }

  /** Notes a blob to look at again once `due` has passed (the later due wins). */
  async deferRemoval(key: string, due: number): Promise<void> {
    await this.db
      .insertInto('blob_removals')
      .values({ blob_key: key, due })
      .onConflict((oc) => oc.column('blob_key').doUpdateSet({ due }))
      .execute();
  }

  /** Blobs whose deferred removal is due, oldest first. */
  async dueRemovals(now: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('blob_removals')
      .select('blob_key')
      .where('due', '<=', now)
      .orderBy('due')
      .limit(limit)
      .execute();
    return rows.map((r) => r.blob_key);
  }

  async forgetRemoval(key: string): Promise<void> {
    await this.db.deleteFrom('blob_removals').where('blob_key', '=', key).execute();
  }
}
