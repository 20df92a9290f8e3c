import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** Key/value settings; owner is `user:<uuid>`, `account:<uuid>` or `namespace:<namespace id>`. */
export class SettingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async all(owner: string): Promise<Record<string, string>> {
    const rows = await this.db
      .selectFrom('settings')
      .select(['key', 'value'])
      .where('owner', '=', owner)
      .execute();
    return Object.fromEntries(rows.map((r) => [r.key, r.value]));
  }

  async get(owner: string, key: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('settings')
      .select('value')
      .where('owner', '=', owner)
      .where('key', '=', key)
      .executeTakeFirst();
    return row?.value;
  }

  async set(owner: string, key: string, value: string): Promise<void> {
    await this.db
      .insertInto('settings')
      .values({ owner, key, value })
      .onConflict((oc) => oc.columns(['owner', 'key']).doUpdateSet({ value }))
      .execute();
  }

  /** Forgets a setting, so whoever reads it falls back to the default. */
  async remove(owner: string, key: string): Promise<void> {
    await this.db.deleteFrom('settings').where('owner', '=', owner).where('key', '=', key).execute();
  }
}
