import type { Kysely, Selectable } from 'kysely';
import type { Database, ViewerTokenTable } from '../db/schema.js';

export type ViewerTokenRow = Selectable<ViewerTokenTable>;

/** Viewer tokens, stored and looked up by the hash of the token only. */
export class ViewerTokensRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: ViewerTokenRow): Promise<void> {
    await this.db.insertInto('viewer_tokens').values(row).execute();
  }

  find(tokenHash: string): Promise<ViewerTokenRow | undefined> {
    return this.db
      .selectFrom('viewer_tokens')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  /** Drops tokens past their expiry (run when new ones are issued, so the table stays small). */
  async deleteExpired(now: number): Promise<void> {
    await this.db.deleteFrom('viewer_tokens').where('expires', '<', now).execute();
  }
}
