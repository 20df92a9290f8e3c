import type { Kysely, Selectable } from 'kysely';
import type { Database, SessionTable } from '../db/schema.js';

export type SessionRow = Selectable<SessionTable>;

/** Sessions are stored by the hash of their sid only. */
export class SessionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: SessionRow): Promise<void> {
    await this.db.insertInto('sessions').values(row).execute();
  }

  find(sidHash: string): Promise<SessionRow | undefined> {
    return this.db.selectFrom('sessions').selectAll().where('sid_hash', '=', sidHash).executeTakeFirst();
  }

  async touch(sidHash: string, lastSeen: number, expires: number): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ last_seen: lastSeen, expires })
      .where('sid_hash', '=', sidHash)
      .execute();
  }

  async delete(sidHash: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('sid_hash', '=', sidHash).execute();
  }

  async deleteAllOfUser(userId: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  }

  /** Signs the user out everywhere except the session that asked (after a password change). */
  async deleteOthersOfUser(userId: string, keepSidHash: string): Promise<void> {
    await this.db
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where('sid_hash', '!=', keepSidHash)
      .execute();
  }

  async deleteExpired(now: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('expires', '<', now).execute();
  }
}
