import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export type EventFlag = 'event_share' | 'event_harvest' | 'event_nominate';

export interface UserEventFlags {
  event_share: number;
  event_harvest: number;
  event_nominate: number;
}

export interface Recipient {
  uuid: string;
  email: string;
  name: string;
  /** The user's chosen language (null: none), and the account of the namespace, to fall back on. */
  language: string | null;
  account_id: string;
}

const OFF: UserEventFlags = { event_share: 0, event_harvest: 0, event_nominate: 0 };

const numbers = (r: UserEventFlags): UserEventFlags => ({
  event_share: Number(r.event_share),
  event_harvest: Number(r.event_harvest),
  event_nominate: Number(r.event_nominate),
});

/** Notification flags per user and namespace, and who is to be mailed about an event. */
export class UserEventsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async flags(userId: string, namespaceId: string): Promise<UserEventFlags> {
    const row = await this.db
      .selectFrom('user_events')
      .select(['event_share', 'event_harvest', 'event_nominate'])
      .where('user_id', '=', userId)
      .where('namespace_id', '=', namespaceId)
      .executeTakeFirst();
    return row ? numbers(row) : OFF;
  }

  /** The user's flags in every namespace that has a row, keyed by namespace id. */
  async flagsOfUser(userId: string): Promise<Map<string, UserEventFlags>> {
    const rows = await this.db
      .selectFrom('user_events')
      .select(['namespace_id', 'event_share', 'event_harvest', 'event_nominate'])
      .where('user_id', '=', userId)
      .execute();
    return new Map(rows.map((r) => [r.namespace_id, numbers(r)]));
  }

  /** Writes the whole flag set of one user in one namespace (insert or update). */
  async save(userId: string, namespaceId: string, flags: UserEventFlags, now: number): Promise<void> {
    await this.db
      .insertInto('user_events')
      .values({ user_id: userId, namespace_id: namespaceId, ...flags, updated: now })
      .onConflict((oc) => oc.columns(['user_id', 'namespace_id']).doUpdateSet({ ...flags, updated: now }))
      .execute();
  }

  /**
   * Active users who opted into `flag` in this namespace and still belong to it: a member of the
   * group that owns it, an admin of its account, or (for an account namespace) any account member.
   * A flag left behind by someone who has since left the group, or whose membership of the
   * account is pending or suspended (decision 0052), sends nothing.
   */
  recipients(namespaceId: string, flag: EventFlag): Promise<Recipient[]> {
    return this.db
      .selectFrom('user_events')
      .innerJoin('users', 'users.uuid', 'user_events.user_id')
      .innerJoin('namespaces', 'namespaces.id', 'user_events.namespace_id')
      .select(['users.uuid', 'users.email', 'users.name', 'users.language', 'namespaces.account_id'])
      .where('user_events.namespace_id', '=', namespaceId)
      .where(`user_events.${flag}`, '=', 1)
      .where('users.status', '=', 'ACTIVE')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('account_members as inactive')
              .select('inactive.user_id')
              .whereRef('inactive.user_id', '=', 'users.uuid')
              .whereRef('inactive.account_id', '=', 'namespaces.account_id')
              .where((inner) =>
                inner.or([inner('inactive.invited', '=', 1), inner('inactive.suspended', '=', 1)]),
              ),
          ),
        ),
      )
      .where((eb) =>
        eb.or([
          eb.exists(
            eb
              .selectFrom('group_members')
              .innerJoin('groups', 'groups.uuid', 'group_members.group_id')
              .select('group_members.user_id')
              .whereRef('group_members.user_id', '=', 'users.uuid')
              .whereRef('groups.namespace_id', '=', 'namespaces.id'),
          ),
          eb.exists(
            eb
              .selectFrom('account_members')
              .select('account_members.user_id')
              .whereRef('account_members.user_id', '=', 'users.uuid')
              .whereRef('account_members.account_id', '=', 'namespaces.account_id')
              .where((inner) =>
                inner.or([
                  inner('account_members.role', '=', 'admin'),
                  inner('namespaces.kind', '=', 'ACCOUNT'),
                ]),
              ),
          ),
        ]),
      )
      .orderBy('users.email')
      .execute();
  }
}
