import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The SQL of permanent removal: finding expired deleted studies and dropping their index rows. */
export class PurgeRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async accountIds(): Promise<string[]> {
    const rows = await this.db.selectFrom('accounts').select('uuid').execute();
    return rows.map((r) => r.uuid);
  }

  async expired(accountId: string, deletedBefore: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('studies')
      .select('uuid')
      .where('account_id', '=', accountId)
      .where('deleted', 'is not', null)
      .where('deleted', '<', deletedBefore)
      .orderBy('deleted')
      .limit(limit)
      .execute();
    return rows.map((r) => r.uuid);
  }

  /**
   * Removes the study and every row hanging off it in one transaction; answers the blob keys its
   * instances used, for the caller to remove the files nothing else references. Shares made from
   * it go too, but their copies in other groups stay: they are studies of their own.
   */
  async removeStudy(uuid: string): Promise<string[]> {
    return this.db.transaction().execute(async (trx) => {
      const keys = await trx
        .selectFrom('instances')
        .select('blob_key')
        .distinct()
        .where('study_uuid', '=', uuid)
        .execute();
      await trx.deleteFrom('study_shares').where('study_uuid', '=', uuid).execute();
      // A purged shared copy ends the share that made it.
      await trx.deleteFrom('study_shares').where('copy_uuid', '=', uuid).execute();
      await trx.deleteFrom('instances').where('study_uuid', '=', uuid).execute();
      await trx.deleteFrom('series').where('study_uuid', '=', uuid).execute();
      await trx.deleteFrom('study_modalities').where('study_uuid', '=', uuid).execute();
      await trx.deleteFrom('study_tags').where('study_uuid', '=', uuid).execute();
      await trx.deleteFrom('study_customfields').where('study_uuid', '=', uuid).execute();
      await trx.deleteFrom('studies').where('uuid', '=', uuid).execute();
      return keys.map((k) => k.blob_key);
    });
  }
}
