import type { Insertable, Kysely, Selectable } from 'kysely';
import type { AuditEventTable, Database } from '../db/schema.js';

export type AuditEventRow = Selectable<AuditEventTable>;

export interface AuditLogFilter {
  userId?: string | undefined;
  /** Any of these users (audit/log `filter.user_id.in`). */
  userIds?: string[] | undefined;
  /** Only events of this outcome (audit/failedlogins: FAILURE). */
  outcome?: string | undefined;
  /** Oldest first (Ambra's default order of audit/user and audit/account) instead of newest first. */
  oldestFirst?: boolean | undefined;
  objectId?: string | undefined;
  actions?: string[] | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

export type AccountLogRow = AuditEventRow & {
  user_name: string | null;
  user_email: string | null;
  study_patient_name: string | null;
  study_description: string | null;
};

export class AuditRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(event: Insertable<AuditEventTable>): Promise<void> {
    await this.db.insertInto('audit_events').values(event).execute();
  }

  /** Events about one object with the name of who acted; one row more than asked tells of a next page. */
  forObject(
    objectId: string,
    options: { actions?: string[]; newestFirst: boolean; limit: number; offset: number },
  ): Promise<(AuditEventRow & { user_name: string | null })[]> {
    let query = this.db
      .selectFrom('audit_events')
      .leftJoin('users', 'users.uuid', 'audit_events.user_id')
      .selectAll('audit_events')
      .select('users.name as user_name')
      .where('audit_events.object_id', '=', objectId);
    if (options.actions?.length) query = query.where('audit_events.action', 'in', options.actions);
    const direction = options.newestFirst ? 'desc' : 'asc';
    return query
      .orderBy('audit_events.at', direction)
      .orderBy('audit_events.id', direction)
      .limit(options.limit)
      .offset(options.offset)
      .execute();
  }

  /**
   * An account's events, newest first: those recorded for the account, and those of its members
   * that belong to no account (sign-ins, failed ones included, and sign-outs). One row more than
   * asked tells of a next page.
   */
  accountLog(
    accountId: string,
    filter: AuditLogFilter,
    limit: number,
    offset: number,
  ): Promise<AccountLogRow[]> {
    let query = this.db
      .selectFrom('audit_events')
      .leftJoin('users', 'users.uuid', 'audit_events.user_id')
      // The study an event is about, when it is one of this account's: its patient and description.
      .leftJoin('studies', (join) =>
        join
          .onRef('studies.uuid', '=', 'audit_events.object_id')
          .on('audit_events.object_type', '=', 'study')
          .on('studies.account_id', '=', accountId),
      )
      .selectAll('audit_events')
      .select([
        'users.name as user_name',
        'users.email as user_email',
        'studies.patient_name as study_patient_name',
        'studies.study_description as study_description',
      ])
      .where((eb) =>
        eb.or([
          eb('audit_events.account_id', '=', accountId),
          eb.and([
            eb('audit_events.account_id', 'is', null),
            eb(
              'audit_events.user_id',
              'in',
              eb.selectFrom('account_members').select('user_id').where('account_id', '=', accountId),
            ),
          ]),
        ]),
      );
    if (filter.userId) query = query.where('audit_events.user_id', '=', filter.userId);
    if (filter.userIds?.length) query = query.where('audit_events.user_id', 'in', filter.userIds);
    if (filter.outcome) query = query.where('audit_events.outcome', '=', filter.outcome);
    if (filter.objectId) query = query.where('audit_events.object_id', '=', filter.objectId);
    if (filter.actions?.length) query = query.where('audit_events.action', 'in', filter.actions);
    if (filter.from !== undefined) query = query.where('audit_events.at', '>=', filter.from);
    if (filter.to !== undefined) query = query.where('audit_events.at', '<=', filter.to);
    const order = filter.oldestFirst ? 'asc' : 'desc';
    return query
      .orderBy('audit_events.at', order)
      .orderBy('audit_events.id', order)
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /** Names of share recipients (users and groups) by uuid, for the history's "shared with …". */
  async recipientNames(ids: string[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    if (!ids.length) return names;
    const [users, groups] = await Promise.all([
      this.db.selectFrom('users').select(['uuid', 'name']).where('uuid', 'in', ids).execute(),
      this.db.selectFrom('groups').select(['uuid', 'name']).where('uuid', 'in', ids).execute(),
    ]);
    for (const row of [...users, ...groups]) names.set(row.uuid, row.name);
    return names;
  }

  /** Names of an account's groups (and of the account itself) by namespace id, for readable details. */
  async namespaceNames(accountId: string, namespaceIds: string[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    if (!namespaceIds.length) return names;
    const [groups, accounts] = await Promise.all([
      this.db
        .selectFrom('groups')
        .select(['namespace_id', 'name'])
        .where('account_id', '=', accountId)
        .where('namespace_id', 'in', namespaceIds)
        .execute(),
      this.db
        .selectFrom('accounts')
        .select(['namespace_id', 'name'])
        .where('uuid', '=', accountId)
        .where('namespace_id', 'in', namespaceIds)
        .execute(),
    ]);
    for (const row of [...groups, ...accounts]) names.set(row.namespace_id, row.name);
    return names;
  }

  /** Names of the account's groups among these group uuids (a share's or a rule's target). */
  async groupNames(accountId: string, groupIds: string[]): Promise<Map<string, string>> {
    if (!groupIds.length) return new Map();
    const rows = await this.db
      .selectFrom('groups')
      .select(['uuid', 'name'])
      .where('account_id', '=', accountId)
      .where('uuid', 'in', groupIds)
      .execute();
    return new Map(rows.map((r) => [r.uuid, r.name]));
  }

  /** The account's studies among these uuids (a send's copy), by patient and description. */
  async studyNames(
    accountId: string,
    uuids: string[],
  ): Promise<Map<string, { patient_name: string; description: string }>> {
    if (!uuids.length) return new Map();
    const rows = await this.db
      .selectFrom('studies')
      .select(['uuid', 'patient_name', 'study_description'])
      .where('account_id', '=', accountId)
      .where('uuid', 'in', uuids)
      .execute();
    return new Map(
      rows.map((r) => [
        r.uuid,
        { patient_name: r.patient_name ?? '', description: r.study_description ?? '' },
      ]),
    );
  }
}
