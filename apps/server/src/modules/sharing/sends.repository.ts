import type { Kysely, Selectable } from 'kysely';
import type { Database, SendGrantTable, StudySendTable } from '../../db/schema.js';
import { copyStudy } from './shares.repository.js';
import type { StudyRow } from '../../repositories/studies.repository.js';
import { shareCodeHolder, shareCodeKey } from '../../repositories/share-codes.js';
import type { AlsoInTransaction } from '../../repositories/with-transaction.js';

export type SendRow = Selectable<StudySendTable>;
export type SendGrantRow = Selectable<SendGrantTable>;

/** Where a send can go: a namespace with its name, its account's name and its share description. */
export interface SendTarget {
  namespace_id: string;
  account_id: string;
  name: string;
  description: string | null;
  organization: string;
}

/** Connections, share-code targets and the sends of studies (connection, share code, e-mail). */
export class SendsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private targets() {
    return this.db
      .selectFrom('namespaces')
      .innerJoin('accounts', 'accounts.uuid', 'namespaces.account_id')
      .select([
        'namespaces.id as namespace_id',
        'namespaces.account_id',
        'namespaces.name',
        'namespaces.share_description as description',
        'accounts.name as organization',
      ]);
  }

  /** The account's connections with the receiving group and organisation names. */
  connections(accountId: string) {
    return this.db
      .selectFrom('connections')
      .innerJoin('namespaces', 'namespaces.id', 'connections.target_namespace_id')
      .innerJoin('accounts', 'accounts.uuid', 'connections.target_account_id')
      .select([
        'connections.uuid',
        'connections.name',
        'connections.target_account_id',
        'connections.target_namespace_id',
        'namespaces.name as namespace_name',
        'accounts.name as organization',
      ])
      .where('connections.account_id', '=', accountId)
      .orderBy('connections.name')
      .execute();
  }

  connection(accountId: string, uuid: string) {
    return this.db
      .selectFrom('connections')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('uuid', '=', uuid)
      .executeTakeFirst();
  }

  async addConnection(row: Selectable<Database['connections']>): Promise<void> {
    await this.db.insertInto('connections').values(row).execute();
  }

  /**
   * Gives the namespace this share code (null: none) and description, registering the code in
   * share_codes in the same transaction; false, with nothing written, when another owner (an
   * account, a group, a person) holds the code in any case. The registry's primary key decides
   * between two owners claiming one code at once.
   */
  async setShareCode(namespaceId: string, code: string | null, description: string | null): Promise<boolean> {
    const key = code === null ? null : shareCodeKey(code);
    try {
      return await this.db.transaction().execute(async (trx) => {
        const ns = await trx
          .selectFrom('namespaces')
          .select('account_id')
          .where('id', '=', namespaceId)
          .executeTakeFirstOrThrow();
        if (key && (await shareCodeHolder(trx, key, namespaceId))) return false;
        await trx.deleteFrom('share_codes').where('namespace_id', '=', namespaceId).execute();
        if (key)
          await trx
            .insertInto('share_codes')
            .values({ code: key, account_id: ns.account_id, namespace_id: namespaceId })
            .execute();
        await trx
          .updateTable('namespaces')
          .set({ share_code: code, share_description: description })
          .where('id', '=', namespaceId)
          .execute();
        return true;
      });
    } catch (error) {
      // Another owner registered the code between the check and the insert.
      if (key && (await shareCodeHolder(this.db, key, namespaceId))) return false;
      throw error;
    }
  }

  /** The namespace a share code sends to, in any case; an account's own code reaches none. */
  byShareCode(code: string): Promise<SendTarget | undefined> {
    return this.targets()
      .innerJoin('share_codes', 'share_codes.namespace_id', 'namespaces.id')
      .where('share_codes.code', '=', shareCodeKey(code))
      .executeTakeFirst();
  }

  byNamespace(id: string): Promise<(SendTarget & { share_code: string | null }) | undefined> {
    return this.targets().select('namespaces.share_code').where('namespaces.id', '=', id).executeTakeFirst();
  }

  async create(send: SendRow): Promise<void> {
    await this.db.insertInto('study_sends').values(send).execute();
  }

  async setJob(uuid: string, jobId: number): Promise<void> {
    await this.db.updateTable('study_sends').set({ job_id: jobId }).where('uuid', '=', uuid).execute();
  }

  find(uuid: string): Promise<SendRow | undefined> {
    return this.db.selectFrom('study_sends').selectAll().where('uuid', '=', uuid).executeTakeFirst();
  }

  /** The sends of a study, newest first, with the target's names. */
  list(studyUuid: string) {
    return this.db
      .selectFrom('study_sends')
      .leftJoin('namespaces', 'namespaces.id', 'study_sends.target_namespace_id')
      .leftJoin('accounts', 'accounts.uuid', 'namespaces.account_id')
      .select([
        'study_sends.uuid',
        'study_sends.method',
        'study_sends.email',
        'study_sends.message',
        'study_sends.status',
        'study_sends.run_at',
        'study_sends.created',
        'study_sends.created_by',
        'namespaces.name as namespace_name',
        'accounts.name as organization',
      ])
      .where('study_sends.study_uuid', '=', studyUuid)
      .orderBy('study_sends.created', 'desc')
      .orderBy('study_sends.uuid')
      .execute();
  }

  /** scheduled → cancelled; false when the send already ran (or was cancelled). */
  async cancel(uuid: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('study_sends')
      .set({ status: 'cancelled', updated: now })
      .where('uuid', '=', uuid)
      .where('status', '=', 'scheduled')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async markFailed(uuid: string, now: number): Promise<void> {
    await this.db
      .updateTable('study_sends')
      .set({ status: 'failed', updated: now })
      .where('uuid', '=', uuid)
      .where('status', '=', 'scheduled')
      .execute();
  }

  /**
   * Delivers a connection or share-code send: copies the study into the target namespace and marks
   * the send sent, in one transaction guarded by status='scheduled' (a cancelled send copies
   * nothing). When the namespace already holds the study (sent before), its message is refreshed.
   * Answers the copy's uuid, or undefined when the send was no longer scheduled.
   */
  async deliverCopy(
    send: SendRow,
    original: StudyRow,
    target: { namespaceId: string; accountId: string },
    now: number,
  ): Promise<string | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('study_sends')
        .set({ status: 'sent', updated: now })
        .where('uuid', '=', send.uuid)
        .where('status', '=', 'scheduled')
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return undefined;
      const held = await trx
        .selectFrom('studies')
        .select('uuid')
        .where('namespace_id', '=', target.namespaceId)
        .where('study_uid', '=', original.study_uid)
        .executeTakeFirst();
      let copyUuid: string;
      if (held) {
        copyUuid = held.uuid;
        await trx
          .updateTable('studies')
          .set({ share_message: send.message, updated: now })
          .where('uuid', '=', held.uuid)
          .execute();
      } else {
        copyUuid = await copyStudy(trx, original, target.namespaceId, send.message, now, target.accountId);
      }
      await trx
        .updateTable('study_sends')
        .set({ copy_uuid: copyUuid })
        .where('uuid', '=', send.uuid)
        .execute();
      return copyUuid;
    });
  }

  /**
   * Marks an e-mail send sent with its link token hash, and runs `also` (queueing the link's mail)
   * in the same transaction; false, with nothing written, when the send is no longer scheduled.
   */
  async deliverLink(
    uuid: string,
    tokenHash: string,
    expires: number,
    now: number,
    also?: AlsoInTransaction,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('study_sends')
        .set({ status: 'sent', token_hash: tokenHash, expires, updated: now })
        .where('uuid', '=', uuid)
        .where('status', '=', 'scheduled')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await also?.(trx);
      return true;
    });
  }

  byTokenHash(tokenHash: string): Promise<SendRow | undefined> {
    return this.db
      .selectFrom('study_sends')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('method', '=', 'email')
      .executeTakeFirst();
  }

  /** Sets (or clears) the one-time code, with `also` (the code's mail) in the same transaction. */
  async setCode(
    uuid: string,
    codeHash: string | null,
    codeExpires: number | null,
    also?: AlsoInTransaction,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('study_sends')
        .set({ code_hash: codeHash, code_expires: codeExpires })
        .where('uuid', '=', uuid)
        .execute();
      await also?.(trx);
    });
  }

  async insertGrant(grant: SendGrantRow): Promise<void> {
    await this.db.insertInto('send_grants').values(grant).execute();
  }

  findGrant(grantHash: string): Promise<SendGrantRow | undefined> {
    return this.db
      .selectFrom('send_grants')
      .selectAll()
      .where('grant_hash', '=', grantHash)
      .executeTakeFirst();
  }
}
