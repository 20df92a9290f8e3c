import type { AnonymizationProfileUse } from '@imaging-inbox/contract';
import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { AnonymizationProfileTable, Database } from '../../db/schema.js';

export type AnonymizationProfileRow = Selectable<AnonymizationProfileTable>;

/** What still names a profile, so deleting it would change what leaves the account (IN_USE). */
export type ProfileUse = AnonymizationProfileUse;

/** How many uses of each kind an IN_USE answer names: enough to act on, bounded in size. */
export const PROFILE_USES_NAMED = 10;

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

  /**
   * Deletes the profile unless something still applies it: the groups it de-identifies into, a
   * destination, a live request link (not revoked, not expired), a routing rule's action (disabled
   * rules too: enabling one would fail its action), a push still queued or sending. Checked and
   * deleted in one transaction; answers what uses it (nothing deleted) or [] (deleted).
   */
  async removeUnused(profile: AnonymizationProfileRow, now: number): Promise<ProfileUse[]> {
    return this.db.transaction().execute(async (trx) => {
      const uses = await usesOf(trx, profile, now);
      if (!uses.length)
        await trx.deleteFrom('anonymization_profiles').where('uuid', '=', profile.uuid).execute();
      return uses;
    });
  }
}

async function usesOf(
  trx: Transaction<Database>,
  profile: AnonymizationProfileRow,
  now: number,
): Promise<ProfileUse[]> {
  const uuid = profile.uuid;
  const groupIds = JSON.parse(profile.groups) as string[];
  const groups = groupIds.length
    ? await trx
        .selectFrom('groups')
        .select(['uuid', 'name'])
        .where('account_id', '=', profile.account_id)
        .where('uuid', 'in', groupIds)
        .orderBy('name')
        .limit(PROFILE_USES_NAMED)
        .execute()
    : [];
  const destinations = await trx
    .selectFrom('destinations')
    .select(['uuid', 'name'])
    .where('anonymization_id', '=', uuid)
    .orderBy('name')
    .limit(PROFILE_USES_NAMED)
    .execute();
  const links = await trx
    .selectFrom('links')
    .innerJoin('groups', 'groups.namespace_id', 'links.namespace_id')
    .select(['links.uuid', 'groups.name'])
    .where('links.anonymization_id', '=', uuid)
    .where('links.revoked', 'is', null)
    .where('links.expires', '>', now)
    .orderBy('links.created')
    .limit(PROFILE_USES_NAMED)
    .execute();
  // Actions are JSON: the uuid narrows the rules read, the parse decides.
  const rules = (
    await trx
      .selectFrom('routing_rules')
      .select(['uuid', 'name', 'actions'])
      .where('account_id', '=', profile.account_id)
      .where('actions', 'like', `%${uuid}%`)
      .orderBy('sequence')
      .execute()
  )
    .filter((rule) =>
      (JSON.parse(rule.actions) as { anonymization_id?: unknown }[]).some((a) => a.anonymization_id === uuid),
    )
    .slice(0, PROFILE_USES_NAMED);
  const pushes = await trx
    .selectFrom('study_pushes')
    .select(['uuid', 'destination_name as name'])
    .where('anonymization_id', '=', uuid)
    .where('status', 'in', ['I', 'N'])
    .orderBy('created')
    .limit(PROFILE_USES_NAMED)
    .execute();
  return [
    ...groups.map((g) => ({ type: 'group' as const, uuid: g.uuid, name: g.name })),
    ...destinations.map((d) => ({ type: 'destination' as const, uuid: d.uuid, name: d.name })),
    ...links.map((l) => ({ type: 'link' as const, uuid: l.uuid, name: l.name })),
    ...rules.map((r) => ({ type: 'routing_rule' as const, uuid: r.uuid, name: r.name })),
    ...pushes.map((p) => ({ type: 'push' as const, uuid: p.uuid, name: p.name })),
  ];
}
