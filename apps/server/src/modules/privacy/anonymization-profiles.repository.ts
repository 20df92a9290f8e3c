import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { AnonymizationProfileTable, Database } from '../../db/schema.js';

export type AnonymizationProfileRow = Selectable<AnonymizationProfileTable>;

/** An account's de-identification profiles (anonymization/*). */
export class AnonymizationProfilesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: Insertable<AnonymizationProfileTable>): Promise<void> {
    await this.db.insertInto('anonymization_profiles').values(row).execute();
  }

  find(uuid: string): Promise<AnonymizationProfileRow | undefined> {
    return this.db
      .selectFrom('anonymization_profiles')
      .selectAll()
      .where('uuid', '=', uuid)
      .executeTakeFirst();
  }

  listOfAccount(accountId: string): Promise<AnonymizationProfileRow[]> {
    return this.db
      .selectFrom('anonymization_profiles')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('name')
      .orderBy('uuid')
      .execute();
  }

  async countOfAccount(accountId: string): Promise<number> {
    const row = await this.db
      .selectFrom('anonymization_profiles')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async update(uuid: string, changes: Updateable<AnonymizationProfileTable>): Promise<void> {
    await this.db.updateTable('anonymization_profiles').set(changes).where('uuid', '=', uuid).execute();
  }

  async remove(uuid: string): Promise<void> {
    await this.db.deleteFrom('anonymization_profiles').where('uuid', '=', uuid).execute();
  }
}
