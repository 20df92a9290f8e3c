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

  /** Names and addresses of these users (to say who holds a lock), by uuid. */
  async namesOf(
    uuids: string[],
  ): Promise<Map<string, { first_name: string; last_name: string; email: string }>> {
    if (!uuids.length) return new Map();
    const rows = await this.db
      .selectFrom('users')
      .select(['uuid', 'first_name', 'last_name', 'email'])
      .where('uuid', 'in', [...new Set(uuids)])
      .execute();
    return new Map(rows.map(({ uuid, ...names }) => [uuid, names]));
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

  async setProfile(
    uuid: string,
    profile: Pick<UserTable, 'first_name' | 'last_name' | 'time_zone' | 'mobile_phone'>,
  ): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ ...profile, name: `${profile.first_name} ${profile.last_name}` })
      .where('uuid', '=', uuid)
      .execute();
  }

  /** The first account the user belongs to (whose language their mails fall back on). */
  async firstAccountId(uuid: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('account_members')
      .select('account_id')
      .where('user_id', '=', uuid)
      .orderBy('account_id')
      .executeTakeFirst();
    return row?.account_id;
  }

  async setLanguage(uuid: string, language: string | null): Promise<void> {
    await this.db.updateTable('users').set({ language }).where('uuid', '=', uuid).execute();
  }

  /** The share code and description of the user's personal namespace in the account, if it has one. */
  personalShareCode(
    userId: string,
    accountId: string,
  ): Promise<{ share_code: string | null; share_description: string | null } | undefined> {
    return this.db
      .selectFrom('namespaces')
      .select(['share_code', 'share_description'])
      .where('owner_user_id', '=', userId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  async touchLogin(uuid: string, at: number): Promise<void> {
    await this.db.updateTable('users').set({ last_login: at }).where('uuid', '=', uuid).execute();
  }
}
