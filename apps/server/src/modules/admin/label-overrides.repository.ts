import type { Kysely, Selectable } from 'kysely';
import type { Database, LabelOverrideTable } from '../../db/schema.js';

export type LabelOverrideRow = Selectable<LabelOverrideTable>;

/** The account's label overrides (label/list, label/set, label/delete). */
export class LabelOverridesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(accountId: string): Promise<LabelOverrideRow[]> {
    return this.db
      .selectFrom('label_overrides')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('language')
      .orderBy('key')
      .execute();
  }

  find(accountId: string, language: string, key: string): Promise<LabelOverrideRow | undefined> {
    return this.db
      .selectFrom('label_overrides')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('language', '=', language)
      .where('key', '=', key)
      .executeTakeFirst();
  }

  /**
   * Writes the override unless it would be a new one beyond `max` of the account; false when it
   * was refused. The bound keeps an account's table (sent to every user at sign-in) small; two
   * additions racing at the limit may both pass on PostgreSQL, which overshoots by one or two and
   * harms nothing, so no lock is taken for it.
   */
  async put(row: LabelOverrideRow, max: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('label_overrides')
        .select('key')
        .where('account_id', '=', row.account_id)
        .where('language', '=', row.language)
        .where('key', '=', row.key)
        .executeTakeFirst();
      if (!existing) {
        const { count } = await trx
          .selectFrom('label_overrides')
          .select((eb) => eb.fn.countAll<string | number>().as('count'))
          .where('account_id', '=', row.account_id)
          .executeTakeFirstOrThrow();
        if (Number(count) >= max) return false;
      }
      await trx
        .insertInto('label_overrides')
        .values(row)
        .onConflict((oc) =>
          oc
            .columns(['account_id', 'language', 'key'])
            .doUpdateSet({ text: row.text, updated_by: row.updated_by, updated: row.updated }),
        )
        .execute();
      return true;
    });
  }

  async remove(accountId: string, language: string, key: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('label_overrides')
      .where('account_id', '=', accountId)
      .where('language', '=', language)
      .where('key', '=', key)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
