import type { Kysely, Selectable } from 'kysely';
import type { Database, PasswordResetTable } from '../../db/schema.js';
import type { AlsoInTransaction } from '../../repositories/with-transaction.js';

export class PasswordResetsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Adds the reset token as the user's only live one (older unused tokens are revoked, marked used
   * at `at`), with `also` (its mail) in the same transaction.
   */
  async insertOnly(row: Selectable<PasswordResetTable>, at: number, also?: AlsoInTransaction): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('password_resets')
        .set({ used: at })
        .where('user_id', '=', row.user_id)
        .where('used', 'is', null)
        .execute();
      await trx.insertInto('password_resets').values(row).execute();
      await also?.(trx);
    });
  }

  /** Revokes every unused token of the user (their password changed). */
  async revokeAll(userId: string, at: number): Promise<void> {
    await this.db
      .updateTable('password_resets')
      .set({ used: at })
      .where('user_id', '=', userId)
      .where('used', 'is', null)
      .execute();
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
