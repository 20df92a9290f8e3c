import type { Kysely, Selectable } from 'kysely';
import type { CallingAeTitleTable, Database } from '../../db/schema.js';

export type CallingAeTitleRow = Selectable<CallingAeTitleTable>;

/** The key an AE title is unique by: trimmed and upper-cased (DICOM pads with spaces; PACS compare case-blind). */
export const aeKey = (title: string): string => title.trim().toUpperCase();

/** The AE titles we call PACS destinations as (calling_ae_titles): one per account, some per destination. */
export class CallingAeTitlesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  ofAccount(accountId: string): Promise<CallingAeTitleRow | undefined> {
    return this.db
      .selectFrom('calling_ae_titles')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('destination_id', 'is', null)
      .executeTakeFirst();
  }

  ofDestination(destinationId: string): Promise<CallingAeTitleRow | undefined> {
    return this.db
      .selectFrom('calling_ae_titles')
      .selectAll()
      .where('destination_id', '=', destinationId)
      .executeTakeFirst();
  }

  /** Who presents this AE title (any case or padding), if anyone. */
  byTitle(title: string): Promise<CallingAeTitleRow | undefined> {
    return this.db
      .selectFrom('calling_ae_titles')
      .selectAll()
      .where('ae_key', '=', aeKey(title))
      .executeTakeFirst();
  }

  /** Every key taken, of the keys given (for choosing a free default). */
  async taken(keys: string[]): Promise<Set<string>> {
    if (!keys.length) return new Set();
    const rows = await this.db
      .selectFrom('calling_ae_titles')
      .select('ae_key')
      .where('ae_key', 'in', keys)
      .execute();
    return new Set(rows.map((r) => r.ae_key));
  }

  /**
   * Gives the account (or, with `destinationId`, that destination) this AE title in place of the one
   * it had; answers false, changing nothing, when someone else holds the title in any case.
   */
  async assign(
    accountId: string,
    destinationId: string | null,
    title: string,
    now: number,
  ): Promise<boolean> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        let old = trx.deleteFrom('calling_ae_titles').where('account_id', '=', accountId);
        old =
          destinationId === null
            ? old.where('destination_id', 'is', null)
            : old.where('destination_id', '=', destinationId);
        await old.execute();
        const inserted = await trx
          .insertInto('calling_ae_titles')
          .values({
            ae_key: aeKey(title),
            ae_title: title,
            account_id: accountId,
            destination_id: destinationId,
            created: now,
          })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) throw new TitleTaken();
        return true;
      });
    } catch (error) {
      // The account's own row raced with another writer of the same account (its unique index).
      if (error instanceof TitleTaken || isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Drops a destination's own AE title (it calls as its account again). */
  async forgetDestination(destinationId: string): Promise<void> {
    await this.db.deleteFrom('calling_ae_titles').where('destination_id', '=', destinationId).execute();
  }

  /** The account that holds the server's own AE title by default: the oldest, then by name. */
  async firstAccountId(): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('accounts')
      .select('uuid')
      .orderBy('created')
      .orderBy('name')
      .orderBy('uuid')
      .executeTakeFirst();
    return row?.uuid;
  }

  async accountName(accountId: string): Promise<string | undefined> {
    return (
      await this.db.selectFrom('accounts').select('name').where('uuid', '=', accountId).executeTakeFirst()
    )?.name;
  }

  /** Whether a local AE title of our listener (local_ae_titles) has this key. */
  async isLocalAe(key: string): Promise<boolean> {
    const rows = await this.db.selectFrom('local_ae_titles').select('ae_title').execute();
    return rows.some((r) => aeKey(r.ae_title) === key);
  }
}

class TitleTaken extends Error {}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || /UNIQUE constraint failed/i.test(e?.message ?? '');
}
