import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** Failed sign-ins and guesses, kept in the database so every app process sees the same count. */
export class AuthFailuresRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async record(keys: string[], at: number): Promise<void> {
    await this.db
      .insertInto('auth_failures')
      .values(keys.map((key) => ({ key, at })))
      .execute();
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
