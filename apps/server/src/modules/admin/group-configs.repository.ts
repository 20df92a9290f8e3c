import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface GroupOfAccount {
  uuid: string;
  account_id: string;
  namespace_id: string;
  name: string;
  type: string;
}

/** The gatekeeper-workflow configuration of groups (JSON documents), and the groups it names. */
export class GroupConfigsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The stored JSON of a group's configuration, if it has one. */
  async get(groupId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('group_configs')
      .select('config')
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    return row?.config;
  }

  /** Writes a group's configuration, replacing the one it had. */
  async set(groupId: string, accountId: string, config: string, now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('group_configs').where('group_id', '=', groupId).execute();
      await trx
        .insertInto('group_configs')
        .values({ group_id: groupId, account_id: accountId, config, updated: now })
        .execute();
    });
  }

  group(uuid: string): Promise<GroupOfAccount | undefined> {
    return this.db
      .selectFrom('groups')
      .select(['uuid', 'account_id', 'namespace_id', 'name', 'type'])
      .where('uuid', '=', uuid)
      .executeTakeFirst();
  }

  /** The account's groups among these uuids. */
  groupsOfAccount(accountId: string, uuids: readonly string[]): Promise<GroupOfAccount[]> {
    if (!uuids.length) return Promise.resolve([]);
    return this.db
      .selectFrom('groups')
      .select(['uuid', 'account_id', 'namespace_id', 'name', 'type'])
      .where('account_id', '=', accountId)
      .where('uuid', 'in', [...uuids])
      .orderBy('name')
      .execute();
  }
}
