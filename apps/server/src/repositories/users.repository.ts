import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, UserTable } from '../db/schema.js';

export type UserRow = Selectable<UserTable>;

export class UsersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email.trim().toLowerCase())
      .executeTakeFirst();
  }

  findByUuid(uuid: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('uuid', '=', uuid).executeTakeFirst();
  }

  async insert(user: Insertable<UserTable>): Promise<void> {
    await this.db
      .insertInto('users')
      .values({ ...user, email: user.email.toLowerCase() })
      .execute();
  }

  async setPassword(uuid: string, passwordHash: string, history: string[]): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ password_hash: passwordHash, password_history: JSON.stringify(history) })
      .where('uuid', '=', uuid)
      .execute();
  }

  async touchLogin(uuid: string, at: number): Promise<void> {
    await this.db.updateTable('users').set({ last_login: at }).where('uuid', '=', uuid).execute();
  }
}
