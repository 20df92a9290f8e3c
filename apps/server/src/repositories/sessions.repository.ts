import type { InferResult, Kysely, Selectable } from 'kysely';
import type { Database, SessionTable } from '../db/schema.js';
import { QueryTemplate } from '../db/query-template.js';
import type { UserRow } from './users.repository.js';

export type SessionRow = Selectable<SessionTable>;

/** Sessions are stored by the hash of their sid only. */
export class SessionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  // Compiled once (db/query-template.ts): every signed-in call reads it.
  private readonly withUser = new QueryTemplate<{ sidHash: string }, SessionWithUserRow>((slot) =>
    sessionWithUser(this.db, slot('sidHash')),
  );

  async insert(row: SessionRow): Promise<void> {
    await this.db.insertInto('sessions').values(row).execute();
  }

  find(sidHash: string): Promise<SessionRow | undefined> {
    return this.db.selectFrom('sessions').selectAll().where('sid_hash', '=', sidHash).executeTakeFirst();
  }

  /** A session and its user in one statement: every signed-in call starts with both. */
  async findWithUser(sidHash: string): Promise<{ session: SessionRow; user: UserRow } | undefined> {
    const row = (await this.withUser.execute(this.db, { sidHash })).rows[0];
    if (!row) return undefined;
    const {
      session_sid_hash,
      session_user_id,
      session_created,
      session_last_seen,
      session_expires,
      session_ip,
      ...user
    } = row;
    return {
      session: {
        sid_hash: session_sid_hash,
        user_id: session_user_id,
        created: session_created,
        last_seen: session_last_seen,
        expires: session_expires,
        ip: session_ip,
      },
      user,
    };
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

/** A session with its user, the session's columns prefixed so they do not collide with the user's. */
function sessionWithUser(db: Kysely<Database>, sidHash: string) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.uuid', 'sessions.user_id')
    .selectAll('users')
    .select([
      'sessions.sid_hash as session_sid_hash',
      'sessions.user_id as session_user_id',
      'sessions.created as session_created',
      'sessions.last_seen as session_last_seen',
      'sessions.expires as session_expires',
      'sessions.ip as session_ip',
    ])
    .where('sessions.sid_hash', '=', sidHash);
}

type SessionWithUserRow = InferResult<ReturnType<typeof sessionWithUser>>[number];
