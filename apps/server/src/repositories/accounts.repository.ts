import type { Kysely, Selectable } from 'kysely';
import type { AccountTable, Database, GroupTable } from '../db/schema.js';
import { shareCodeKey } from './share-codes.js';

export type AccountRow = Selectable<AccountTable>;
export type GroupRow = Selectable<GroupTable>;

/** Accounts, their groups and the namespaces both own. */
export class AccountsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async createAccount(account: AccountRow): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('accounts').values(account).execute();
      await trx
        .insertInto('namespaces')
        .values({ id: account.namespace_id, account_id: account.uuid, kind: 'ACCOUNT', name: account.name })
        .execute();
      // The account's own code is registered so no group or person can take it (share_codes).
      if (account.share_code)
        await trx
          .insertInto('share_codes')
          .values({ code: shareCodeKey(account.share_code), account_id: account.uuid, namespace_id: null })
          .execute();
    });
  }

  async createGroup(group: GroupRow): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('namespaces')
        .values({ id: group.namespace_id, account_id: group.account_id, kind: group.type, name: group.name })
        .execute();
      await trx.insertInto('groups').values(group).execute();
    });
  }

  findAccount(uuid: string): Promise<AccountRow | undefined> {
    return this.db.selectFrom('accounts').selectAll().where('uuid', '=', uuid).executeTakeFirst();
  }

  /** The account with this vanity name (case-blind), as an HL7 message's receiving facility names it. */
  findAccountByVanity(vanity: string): Promise<AccountRow | undefined> {
    return this.db
      .selectFrom('accounts')
      .selectAll()
      .where((e) => e(e.fn('lower', ['vanity']), '=', vanity.toLowerCase()))
      .executeTakeFirst();
  }

  accountsByIds(uuids: string[]): Promise<AccountRow[]> {
    if (!uuids.length) return Promise.resolve([]);
    return this.db.selectFrom('accounts').selectAll().where('uuid', 'in', uuids).orderBy('name').execute();
  }

  groupsOfAccount(accountId: string): Promise<GroupRow[]> {
    return this.db.selectFrom('groups').selectAll().where('account_id', '=', accountId).execute();
  }

  findGroup(uuid: string): Promise<GroupRow | undefined> {
    return this.db.selectFrom('groups').selectAll().where('uuid', '=', uuid).executeTakeFirst();
  }

  /** The group owning a namespace; undefined for an account namespace. */
  groupOfNamespace(namespaceId: string): Promise<GroupRow | undefined> {
    return this.db
      .selectFrom('groups')
      .selectAll()
      .where('namespace_id', '=', namespaceId)
      .executeTakeFirst();
  }

  namespace(id: string) {
    return this.db.selectFrom('namespaces').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
