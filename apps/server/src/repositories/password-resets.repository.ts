import type { Kysely, Selectable } from 'kysely';
import type { Database, PasswordResetTable } from '../db/schema.js';
import type { AlsoInTransaction } from './with-transaction.js';

export class PasswordResetsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Adds the reset token, with `also` (its mail) in the same transaction. */
  async insert(row: Selectable<PasswordResetTable>, also?: AlsoInTransaction): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('password_resets').values(row).execute();
      await also?.(trx);
    });
  }

  find(tokenHash: string): Promise<Selectable<PasswordResetTable> | undefined> {
    return this.db
      .selectFrom('password_resets')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  /** Marks the token used; false when it was already used (two racing resets: one wins). */
  async consume(tokenHash: string, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('password_resets')
      .set({ used: at })
      .where('token_hash', '=', tokenHash)
      .where('used', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
