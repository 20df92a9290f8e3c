import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** Whether any instance or attachment row still points at a blob file. */
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
}
