import { STUDY_STATUS } from '@imaging-inbox/contract';
import type { DestinationWorklistItem } from '@imaging-inbox/contract';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type {
  Database,
  DestinationRetrieveTable,
  DestinationSearchResultTable,
  DestinationSearchTable,
} from '../../db/schema.js';

export type DestinationSearchRow = Selectable<DestinationSearchTable>;
export type DestinationSearchResultRow = Selectable<DestinationSearchResultTable>;
export type DestinationRetrieveRow = Selectable<DestinationRetrieveTable>;
export type SearchResultFields = Omit<DestinationSearchResultTable, 'search_id' | 'seq'>;

/** Destination searches, the studies they found and the retrieves started from them. */
export class DestinationSearchesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertSearch(row: Insertable<DestinationSearchTable>): Promise<void> {
    await this.db.insertInto('destination_searches').values(row).execute();
  }

  findSearch(uuid: string): Promise<DestinationSearchRow | undefined> {
    return this.db.selectFrom('destination_searches').selectAll().where('uuid', '=', uuid).executeTakeFirst();
  }

  /** Adds found studies after the ones already there; a study found twice is kept once. */
  async addResults(searchId: string, firstSeq: number, results: SearchResultFields[]): Promise<void> {
    if (!results.length) return;
    await this.db
      .insertInto('destination_search_results')
      .values(results.map((r, i) => ({ ...r, search_id: searchId, seq: firstSeq + i })))
      .onConflict((oc) => oc.columns(['search_id', 'study_uid']).doNothing())
      .execute();
  }

  results(searchId: string): Promise<DestinationSearchResultRow[]> {
    return this.db
      .selectFrom('destination_search_results')
      .selectAll()
      .where('search_id', '=', searchId)
      .orderBy('seq')
      .execute();
  }

  findResult(searchId: string, studyUid: string): Promise<DestinationSearchResultRow | undefined> {
    return this.db
      .selectFrom('destination_search_results')
      .selectAll()
      .where('search_id', '=', searchId)
      .where('study_uid', '=', studyUid)
      .executeTakeFirst();
  }

  /** The items a worklist search found, in the order the worklist answered them. */
  async addWorklistItems(searchId: string, items: DestinationWorklistItem[]): Promise<void> {
    if (!items.length) return;
    await this.db
      .insertInto('destination_worklist_items')
      .values(items.map((item, seq) => ({ ...item, search_id: searchId, seq })))
      .execute();
  }

  async worklistItems(searchId: string): Promise<DestinationWorklistItem[]> {
    const rows = await this.db
      .selectFrom('destination_worklist_items')
      .selectAll()
      .where('search_id', '=', searchId)
      .orderBy('seq')
      .execute();
    return rows.map(({ search_id: _s, seq: _q, ...item }) => item);
  }

  /** Ends a search that is still running (a search already ended keeps its outcome). */
  async endSearch(
    uuid: string,
    outcome: { state: 'done' | 'failed'; reason: string | null; truncated?: boolean },
    now: number,
  ): Promise<void> {
    await this.db
      .updateTable('destination_searches')
      .set({
        state: outcome.state,
        reason: outcome.reason,
        truncated: outcome.truncated ? 1 : 0,
        updated: now,
      })
      .where('uuid', '=', uuid)
      .where('state', '=', 'running')
      .execute();
  }

  async insertRetrieve(row: Insertable<DestinationRetrieveTable>): Promise<void> {
    await this.db.insertInto('destination_retrieves').values(row).execute();
  }

  findRetrieve(uuid: string): Promise<DestinationRetrieveRow | undefined> {
    return this.db
      .selectFrom('destination_retrieves')
      .selectAll()
      .where('uuid', '=', uuid)
      .executeTakeFirst();
  }

  retrievesOfSearch(searchId: string): Promise<DestinationRetrieveRow[]> {
    return this.db
      .selectFrom('destination_retrieves')
      .selectAll()
      .where('search_id', '=', searchId)
      .orderBy('created')
      .orderBy('uuid')
      .execute();
  }

  /** The running retrieve of this study from this search, if any. */
  runningRetrieve(searchId: string, studyUid: string): Promise<DestinationRetrieveRow | undefined> {
    return this.db
      .selectFrom('destination_retrieves')
      .selectAll()
      .where('search_id', '=', searchId)
      .where('study_uid', '=', studyUid)
      .where('state', '=', 'running')
      .executeTakeFirst();
  }

  /** Retrieves from this destination still waiting for their C-MOVE to end. */
  runningOfDestination(destinationId: string): Promise<DestinationRetrieveRow[]> {
    return this.db
      .selectFrom('destination_retrieves')
      .selectAll()
      .where('destination_id', '=', destinationId)
      .where('state', '=', 'running')
      .orderBy('created', 'desc')
      .execute();
  }

  async setMoveMessageId(uuid: string, messageId: number, now: number): Promise<void> {
    await this.db
      .updateTable('destination_retrieves')
      .set({ move_message_id: messageId, updated: now })
      .where('uuid', '=', uuid)
      .execute();
  }

  async setProgress(
    uuid: string,
    progress: { completed?: number | undefined; failed?: number | undefined; remaining?: number | undefined },
    now: number,
  ): Promise<void> {
    await this.db
      .updateTable('destination_retrieves')
      .set({
        ...(progress.completed !== undefined ? { completed: progress.completed } : {}),
        ...(progress.failed !== undefined ? { failed: progress.failed } : {}),
        ...(progress.remaining !== undefined ? { remaining: progress.remaining } : {}),
        updated: now,
      })
      .where('uuid', '=', uuid)
      .execute();
  }

  /**
   * The distinct instances (SOP Instance UIDs) the retrieve's study holds in its group: what the
   * retrieve brought, however many C-MOVEs (a takeover after a crash moves the study again) sent
   * each of them.
   */
  async instancesInStudy(namespaceId: string, studyUid: string): Promise<number> {
    const row = await this.db
      .selectFrom('instances')
      .innerJoin('studies', 'studies.uuid', 'instances.study_uuid')
      .select((eb) => eb.fn.count<number>('instances.sop_instance_uid').distinct().as('n'))
      .where('studies.namespace_id', '=', namespaceId)
      .where('studies.study_uid', '=', studyUid)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** One more instance of the retrieve arrived and was stored (a new one: a duplicate is not counted). */
  async countReceived(uuid: string): Promise<void> {
    await this.db
      .updateTable('destination_retrieves')
      .set((eb) => ({ received: eb('received', '+', 1) }))
      .where('uuid', '=', uuid)
      .execute();
  }

  /**
   * Ends a retrieve that is still running, and settles the study it filled in its group, in one
   * transaction: done, the study is listed as any other (NEW); failed, what arrived stays, listed
   * and marked INCOMPLETE until a retrieve of it completes. Answers that study's uuid (none when
   * nothing arrived), or null when the retrieve had already ended.
   */
  async endRetrieve(
    uuid: string,
    outcome: { state: 'done' | 'failed'; reason: string | null },
    now: number,
  ): Promise<{ studyUuid: string | undefined } | null> {
    return await this.db.transaction().execute(async (trx) => {
      const ended = await trx
        .updateTable('destination_retrieves')
        .set({ state: outcome.state, reason: outcome.reason, updated: now })
        .where('uuid', '=', uuid)
        .where('state', '=', 'running')
        .returning(['namespace_id', 'study_uid'])
        .executeTakeFirst();
      if (!ended) return null;
      const unsettled: string[] =
        outcome.state === 'done'
          ? [STUDY_STATUS.retrieving, STUDY_STATUS.incomplete]
          : [STUDY_STATUS.retrieving];
      await trx
        .updateTable('studies')
        .set({
          study_status: outcome.state === 'done' ? STUDY_STATUS.new : STUDY_STATUS.incomplete,
          updated: now,
        })
        .where('namespace_id', '=', ended.namespace_id)
        .where('study_uid', '=', ended.study_uid)
        .where('study_status', 'in', unsettled)
        .execute();
      const study = await trx
        .selectFrom('studies')
        .select('uuid')
        .where('namespace_id', '=', ended.namespace_id)
        .where('study_uid', '=', ended.study_uid)
        .executeTakeFirst();
      return { studyUuid: study?.uuid };
    });
  }
}
