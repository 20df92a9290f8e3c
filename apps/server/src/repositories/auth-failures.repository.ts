import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { DialectName } from '../db/dialect.js';
import type { Database } from '../db/schema.js';

/** Failed sign-ins and guesses, kept in the database so every app process sees the same count. */
export class AuthFailuresRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  /**
   * Runs `work` (its reads and writes through the repository it is given) as the only one counting
   * the keys of `family` at that moment, so a count and the failure recorded after it cannot be
   * split by a concurrent attempt. PostgreSQL: one transaction holding an advisory lock on the
   * family (other processes and pool connections wait for it). SQLite: one transaction on the
   * process's single connection, which runs nothing else meanwhile (SQLite serves one process).
   */
  exclusive<T>(family: string, work: (failures: AuthFailuresRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      if (this.dialect === 'postgres')
        await sql`select pg_advisory_xact_lock(hashtext(${`auth_failures:${family}`}))`.execute(trx);
      return work(new AuthFailuresRepository(trx, this.dialect));
    });
  }

  /** Records one failure per key at `at`; answers the rows' ids, so a reservation can be refunded. */
  async record(keys: string[], at: number): Promise<number[]> {
    if (!keys.length) return [];
    const rows = await this.db
      .insertInto('auth_failures')
      .values(keys.map((key) => ({ key, at })))
      .returning('id')
      .execute();
    return rows.map((row) => Number(row.id));
  }

  /** Takes back failures recorded as reservations (an attempt that turned out right). */
  async remove(ids: number[]): Promise<void> {
    if (!ids.length) return;
    await this.db.deleteFrom('auth_failures').where('id', 'in', ids).execute();
  }

  async countSince(key: string, since: number): Promise<number> {
    const row = await this.db
      .selectFrom('auth_failures')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('key', '=', key)
      .where('at', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** How many failures `key` holds since `since`, and when the latest was (0 when none). */
  async recentOf(key: string, since: number): Promise<{ count: number; latest: number }> {
    const row = await this.db
      .selectFrom('auth_failures')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('at').as('latest')])
      .where('key', '=', key)
      .where('at', '>=', since)
      .executeTakeFirstOrThrow();
    return { count: Number(row.n), latest: Number(row.latest ?? 0) };
  }

  async clear(key: string): Promise<void> {
    await this.db.deleteFrom('auth_failures').where('key', '=', key).execute();
  }

  async prune(before: number): Promise<void> {
    await this.db.deleteFrom('auth_failures').where('at', '<', before).execute();
  }
}
