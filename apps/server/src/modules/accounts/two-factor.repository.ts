import type { Kysely, Selectable } from 'kysely';
import type { Database, UserTotpTable } from '../../db/schema.js';

export type TotpRow = Selectable<UserTotpTable>;

/** A user's TOTP secret and recovery codes (tables user_totp, user_recovery_codes). */
export class TwoFactorRepository {
  constructor(private readonly db: Kysely<Database>) {}

  find(userId: string): Promise<TotpRow | undefined> {
    return this.db.selectFrom('user_totp').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  /** A new secret not yet enabled, replacing any secret that was not enabled either. */
  async savePending(userId: string, secret: string, now: number): Promise<void> {
    await this.db
      .deleteFrom('user_totp')
      .where('user_id', '=', userId)
      .where('enabled', 'is', null)
      .execute();
    await this.db
      .insertInto('user_totp')
      .values({ user_id: userId, secret, enabled: null, last_step: null, created: now })
      .execute();
  }

  /** Enables the pending secret with its first accepted step and its fresh recovery codes. */
  async enable(userId: string, step: number, now: number, codeHashes: string[]): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const done = await tx
        .updateTable('user_totp')
        .set({ enabled: now, last_step: step })
        .where('user_id', '=', userId)
        .where('enabled', 'is', null)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1) return false;
      await tx.deleteFrom('user_recovery_codes').where('user_id', '=', userId).execute();
      await tx
        .insertInto('user_recovery_codes')
        .values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash, used: null })))
        .execute();
      return true;
    });
  }

  /**
   * Records `step` as used when it is newer than the last one: false when that step (or a newer
   * one) was used already, so two requests with one code cannot both sign in.
   */
  async useStep(userId: string, step: number): Promise<boolean> {
    const done = await this.db
      .updateTable('user_totp')
      .set({ last_step: step })
      .where('user_id', '=', userId)
      .where('enabled', 'is not', null)
      .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
      .executeTakeFirst();
    return Number(done.numUpdatedRows) === 1;
  }

  /** Marks an unused recovery code used; false when it is unknown or was used already. */
  async useRecoveryCode(userId: string, codeHash: string, now: number): Promise<boolean> {
    const done = await this.db
      .updateTable('user_recovery_codes')
      .set({ used: now })
      .where('user_id', '=', userId)
      .where('code_hash', '=', codeHash)
      .where('used', 'is', null)
      .executeTakeFirst();
    return Number(done.numUpdatedRows) === 1;
  }

  async recoveryCodesLeft(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('user_recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('used', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async remove(userId: string): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('user_recovery_codes').where('user_id', '=', userId).execute();
      await tx.deleteFrom('user_totp').where('user_id', '=', userId).execute();
    });
  }
}
