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

  /** Which of these uuids are groups of the account. */
  async groupsOfAccount(accountId: string, uuids: string[]): Promise<string[]> {
    if (!uuids.length) return [];
    const rows = await this.db
      .selectFrom('groups')
      .select('uuid')
      .where('account_id', '=', accountId)
      .where('uuid', 'in', uuids)
      .execute();
    return rows.map((r) => r.uuid);
  }

  /** The account's profile that de-identifies what is shared into the group, if any. */
  async ofGroup(accountId: string, groupUuid: string): Promise<AnonymizationProfileRow | undefined> {
    const rows = await this.listOfAccount(accountId);
    return rows.find((r) => (JSON.parse(r.groups) as string[]).includes(groupUuid));
  }

  async update(uuid: string, changes: Updateable<AnonymizationProfileTable>): Promise<void> {
    await this.db.updateTable('anonymization_profiles').set(changes).where('uuid', '=', uuid).execute();
  }

  async remove(uuid: string): Promise<void> {
    await this.db.deleteFrom('anonymization_profiles').where('uuid', '=', uuid).execute();
  }
}
