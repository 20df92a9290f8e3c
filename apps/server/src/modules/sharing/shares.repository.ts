import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, StudyShareTable } from '../../db/schema.js';
import type { StudyRow } from '../../repositories/studies.repository.js';

export type ShareRow = Selectable<StudyShareTable>;
export type ShareTarget = { type: 'user' | 'group'; id: string };

/** Shares of studies within their account, and the study copies they make. */
export class SharesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The account's members to share with: a pending or suspended membership is no one's here (decision 0052). */
  shareableUsers(accountId: string, exceptUser: string) {
    return this.db
      .selectFrom('account_members')
      .innerJoin('users', 'users.uuid', 'account_members.user_id')
      .select(['users.uuid', 'users.name', 'users.email as user_email'])
      .where('account_members.account_id', '=', accountId)
      .where('account_members.invited', '=', 0)
      .where('account_members.suspended', '=', 0)
      .where('users.uuid', '!=', exceptUser)
      .orderBy('users.name')
      .execute();
  }

  shareableGroups(accountId: string, exceptNamespace: string) {
    return this.db
      .selectFrom('groups')
      .select(['uuid', 'name', 'namespace_id', 'type'])
      .where('account_id', '=', accountId)
      .where('namespace_id', '!=', exceptNamespace)
      .orderBy('name')
      .execute();
  }

  group(accountId: string, uuid: string) {
    return this.db
      .selectFrom('groups')
      .select(['uuid', 'name', 'namespace_id'])
      .where('account_id', '=', accountId)
      .where('uuid', '=', uuid)
      .executeTakeFirst();
  }

  user(accountId: string, uuid: string) {
    return this.db
      .selectFrom('account_members')
      .innerJoin('users', 'users.uuid', 'account_members.user_id')
      .select(['users.uuid', 'users.name'])
      .where('account_members.account_id', '=', accountId)
      .where('account_members.invited', '=', 0)
      .where('account_members.suspended', '=', 0)
      .where('users.uuid', '=', uuid)
      .executeTakeFirst();
  }

  /**
   * The recipient's personal namespace in the account, made on the first share with them. Two
   * shares racing to make it meet the unique (owner, account) index; the loser reads the winner's.
   */
  async personalNamespace(accountId: string, userId: string, name: string): Promise<string> {
    const existing = () =>
      this.db
        .selectFrom('namespaces')
        .select('id')
        .where('account_id', '=', accountId)
        .where('owner_user_id', '=', userId)
        .executeTakeFirst();
    const found = await existing();
    if (found) return found.id;
    try {
      const id = randomUUID();
      await this.db
        .insertInto('namespaces')
        .values({ id, account_id: accountId, kind: 'USER', name, owner_user_id: userId })
        .execute();
      return id;
    } catch (error) {
      const raced = await existing();
      if (raced) return raced.id;
      throw error;
    }
  }

  find(studyUuid: string, target: ShareTarget): Promise<ShareRow | undefined> {
    return this.db
      .selectFrom('study_shares')
      .selectAll()
      .where('study_uuid', '=', studyUuid)
      .where('target_type', '=', target.type)
      .where('target_id', '=', target.id)
      .executeTakeFirst();
  }

  /** The shares of a study with the recipient's display name, oldest first. */
  list(studyUuid: string) {
    return this.db
      .selectFrom('study_shares')
      .leftJoin('users', (j) =>
        j.onRef('users.uuid', '=', 'study_shares.target_id').on('study_shares.target_type', '=', 'user'),
      )
      .leftJoin('groups', (j) =>
        j.onRef('groups.uuid', '=', 'study_shares.target_id').on('study_shares.target_type', '=', 'group'),
      )
      .select([
        'study_shares.target_id',
        'study_shares.target_type',
        'study_shares.message',
        'study_shares.created',
        'users.name as user_name',
        'users.email as user_email',
        'groups.name as group_name',
      ])
      .where('study_shares.study_uuid', '=', studyUuid)
      .orderBy('study_shares.created')
      .orderBy('study_shares.uuid')
      .execute();
  }

  /** Whether the namespace already holds a study with this uid (the index keeps one per namespace). */
  async uidTaken(namespaceId: string, studyUid: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('studies')
      .select('uuid')
      .where('namespace_id', '=', namespaceId)
      .where('study_uid', '=', studyUid)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Records a share; for a group, first copies the study's index rows (study, modalities, series,
   * instances) into the group's namespace pointing at the same blob keys: no file is copied.
   * One transaction, so a failure leaves neither a half copy nor a share without its copy.
   */
  async create(
    share: Omit<ShareRow, 'copy_uuid'>,
    original: StudyRow,
    /** Where the rows are copied, or a copy already made there (a de-identified study: its message set). */
    copyInto: string | { made: string; namespaceId: string } | null,
    now: number,
    /** More writes of the share's transaction (its mails), given the copy's uuid. */
    also?: (trx: Kysely<Database>, copyUuid: string | null) => Promise<void>,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      let copyUuid: string | null = null;
      if (typeof copyInto === 'string')
        copyUuid = await copyStudy(trx, original, copyInto, share.message, now);
      else if (copyInto) {
        copyUuid = copyInto.made;
        await trx
          .updateTable('studies')
          .set({ share_message: share.message })
          .where('uuid', '=', copyUuid)
          .execute();
      }
      await trx
        .insertInto('study_shares')
        .values({ ...share, copy_uuid: copyUuid })
        .execute();
      await trx
        .updateTable('studies')
        .set((eb) => ({ direct_share_count: eb('direct_share_count', '+', 1) }))
        .where('uuid', '=', original.uuid)
        .execute();
      await also?.(trx, copyUuid);
    });
  }

  async updateMessage(share: ShareRow, message: string | null): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('study_shares').set({ message }).where('uuid', '=', share.uuid).execute();
      if (share.copy_uuid) {
        await trx
          .updateTable('studies')
          .set({ share_message: message })
          .where('uuid', '=', share.copy_uuid)
          .execute();
      }
    });
  }

  /** Removes the share and its copy; answers the blob keys the copy used (to drop unreferenced files). */
  async remove(share: ShareRow): Promise<string[]> {
    return this.db.transaction().execute(async (trx) => {
      let keys: string[] = [];
      if (share.copy_uuid) {
        const copy = share.copy_uuid;
        keys = (
          await trx
            .selectFrom('instances')
            .select('blob_key')
            .distinct()
            .where('study_uuid', '=', copy)
            .execute()
        ).map((r) => r.blob_key);
        await trx.deleteFrom('study_shares').where('study_uuid', '=', copy).execute();
        await trx.deleteFrom('instances').where('study_uuid', '=', copy).execute();
        await trx.deleteFrom('series').where('study_uuid', '=', copy).execute();
        await trx.deleteFrom('study_modalities').where('study_uuid', '=', copy).execute();
        await trx.deleteFrom('study_tags').where('study_uuid', '=', copy).execute();
        await trx.deleteFrom('study_customfields').where('study_uuid', '=', copy).execute();
        await trx.deleteFrom('studies').where('uuid', '=', copy).execute();
      }
      await trx.deleteFrom('study_shares').where('uuid', '=', share.uuid).execute();
      await trx
        .updateTable('studies')
        .set((eb) => ({ direct_share_count: eb('direct_share_count', '-', 1) }))
        .where('uuid', '=', share.study_uuid)
        .where('direct_share_count', '>', 0)
        .execute();
      return keys;
    });
  }
}

/**
 * Copies a study's index rows (study, modalities, series, instances) into another namespace, of the
 * same account or (for sends) another one, pointing at the same blob keys. Answers the copy's uuid.
 */
export async function copyStudy(
  trx: Transaction<Database>,
  original: StudyRow,
  namespaceId: string,
  message: string | null,
  now: number,
  accountId: string = original.account_id,
): Promise<string> {
  const uuid = randomUUID();
  await trx
    .insertInto('studies')
    .values({
      ...original,
      uuid,
      account_id: accountId,
      namespace_id: namespaceId,
      source: 'share',
      share_message: message,
      shared_from: original.uuid,
      direct_share_count: 0,
      star: 0,
      is_locked: 0,
      locked_by: null,
      locked_at: null,
      deleted: null,
      created: now,
      updated: now,
    })
    .execute();
  const modalities = await trx
    .selectFrom('study_modalities')
    .select('modality')
    .where('study_uuid', '=', original.uuid)
    .execute();
  if (modalities.length) {
    await trx
      .insertInto('study_modalities')
      .values(modalities.map((m) => ({ study_uuid: uuid, modality: m.modality })))
      .execute();
  }
  const seriesMap = new Map<string, string>();
  const series = await trx.selectFrom('series').selectAll().where('study_uuid', '=', original.uuid).execute();
  for (const s of series) {
    const copy = randomUUID();
    seriesMap.set(s.uuid, copy);
    await trx
      .insertInto('series')
      .values({ ...s, uuid: copy, study_uuid: uuid })
      .execute();
  }
  const instances = await trx
    .selectFrom('instances')
    .selectAll()
    .where('study_uuid', '=', original.uuid)
    .execute();
  // Batches keep each statement under SQLite's bound-parameter limit.
  for (let i = 0; i < instances.length; i += 200) {
    await trx
      .insertInto('instances')
      .values(
        instances.slice(i, i + 200).map((inst) => ({
          ...inst,
          uuid: randomUUID(),
          study_uuid: uuid,
          series_uuid: seriesMap.get(inst.series_uuid)!,
        })),
      )
      .execute();
  }
  return uuid;
}
