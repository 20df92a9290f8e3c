import { STUDY_STATUS, type StudyCustomFieldValue } from '@imaging-inbox/contract';
import type { ExpressionBuilder, Kysely, QueryCreator, Selectable, Updateable } from 'kysely';
import { sql } from 'kysely';
import type { Database, StudyTable } from '../db/schema.js';
import type { StudyQuery } from './study-query.types.js';
import { countableFromCounts, totalFromCountsQuery } from './study-counts.sql.js';
import { applyStudyFilters, applyStudySort, sortKeyColumns, studySortTerms } from './study-search.sql.js';
import {
  RECENT_DEFAULTS,
  type RecentWindowOptions,
  recentStudies,
  recentWindowApplies,
} from './study-recent-window.sql.js';
import { InListTemplate } from '../db/in-list-template.js';
import { TemplateCache } from '../db/template-cache.js';

/** Up to this many namespaces and rows per page window, study/list merges one stream per namespace. */
const MERGE_MAX_NAMESPACES = 32;
const MERGE_MAX_WINDOW = 2_000;

/** Searches whose page and total queries are kept compiled (SQL text, values and query tree). */
const SEARCH_TEMPLATES = 100;

/** A kept search query's values: namespace i as `ns${i}`, and the page's position. */
type SearchArgs = Record<string, string | number>;

function searchArgs(namespaces: string[], position?: { offset: number; window: number }): SearchArgs {
  const args: SearchArgs = { ...position };
  for (let i = 0; i < namespaces.length; i++) args[`ns${i}`] = namespaces[i]!;
  return args;
}

function namespaceSlots(slot: (name: string) => unknown, count: number): string[] {
  return Array.from({ length: count }, (_, i) => slot(`ns${i}`) as string);
}

export type StudyRow = Selectable<StudyTable>;

/**
 * The columns a listed study's answer uses (study/list's presenter and its permissions, QIDO-RS):
 * a page reads only these from the table, not its search keys and bookkeeping. Building 51 full
 * rows was about a third of an unfiltered page's time in SQLite.
 */
export const LISTED_COLUMNS = [
  'uuid',
  'account_id',
  'namespace_id',
  'study_uid',
  'patient_name',
  'patientid',
  'patient_sex',
  'patient_birth_date',
  'patient_age',
  'accession_number',
  'study_description',
  'study_date',
  'study_time',
  'modality',
  'referring_physician',
  'source_ae_title',
  'destination_ae_title',
  'image_count',
  'series_count',
  'attachment_count',
  'size',
  'star',
  'thin',
  'is_locked',
  'locked_by',
  'locked_at',
  'must_approve',
  'study_status',
  'push_status',
  'source',
  'share_message',
  'deleted',
  'created',
  'updated',
] as const satisfies readonly (keyof StudyTable)[];

/** A study as a search lists it (LISTED_COLUMNS). */
export type StudyListed = Pick<StudyRow, (typeof LISTED_COLUMNS)[number]>;

const LISTED_SELECTION = LISTED_COLUMNS.map((column) => `studies.${column}` as const);

export interface StudyExtras {
  tags: Map<string, string[]>;
  customFields: Map<string, StudyCustomFieldValue[]>;
}

export class StudiesRepository {
  /**
   * `recent`: how a date range's streams read each namespace's newest studies first (decision
   * 0082), or null for the sorted read only.
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly recent: RecentWindowOptions | null = RECENT_DEFAULTS,
  ) {}

  /** One page, plus whether another page follows (read one row more than asked). */
  async search(q: StudyQuery, namespaces: string[]): Promise<{ rows: StudyListed[]; more: boolean }> {
    if (!namespaces.length) return { rows: [], more: false };
    const offset = q.offset ?? (q.page - 1) * q.rows;
    const window = offset + q.rows + 1;
    // A text filter (name, id, accession, smart search…) is selective and has its own index,
    // which the single query uses; per-namespace streams pay off for broad searches only.
    const broad = q.text.length === 0 && q.smart === undefined;
    const merged = broad && namespaces.length <= MERGE_MAX_NAMESPACES && window <= MERGE_MAX_WINDOW;
    const recent = merged ? await this.recentNamespaces(q, namespaces, window) : undefined;
    const args = searchArgs(namespaces, { offset, window });
    const rows = (await this.pageTemplate(q, namespaces.length, merged, recent).execute(this.db, args)).rows;
    const more = rows.length > q.rows;
    return { rows: more ? rows.slice(0, q.rows) : rows, more };
  }

  /**
   * Which namespaces' streams read their newest studies first (decision 0082): for a search that
   * allows it, those with at least `minStudies` live studies (from the maintained totals, a few
   * rows each); undefined when none does.
   */
  private async recentNamespaces(q: StudyQuery, namespaces: string[], window: number) {
    const options = this.recent;
    if (!options || !recentWindowApplies(q, window)) return undefined;
    const live = await this.db
      .selectFrom('study_count_totals')
      .select(['namespace_id', sql<number>`sum(n)`.as('n')])
      .where('namespace_id', 'in', namespaces)
      .where('deleted', '=', 0)
      .groupBy('namespace_id')
      .execute();
    const large = new Set(live.filter((r) => Number(r.n) >= options.minStudies).map((r) => r.namespace_id));
    const recent = namespaces.map((ns) => large.has(ns));
    return recent.some(Boolean) ? recent : undefined;
  }

  /**
   * The page query of this search (its filters, sort and page size) over this many namespaces,
   * compiled once: an inbox asks the same search again and again (polling, paging), and building
   * and compiling the page's query cost about as much JavaScript as SQLite spends running it.
   * Only the namespaces and the page's position are left to fill in; the filters' values are part
   * of the key, so the SQL text and its other values are the ones the builder makes for them.
   */
  private pageTemplate(q: StudyQuery, namespaceCount: number, merged: boolean, recent?: boolean[]) {
    const key = JSON.stringify([merged, recent, namespaceCount, { ...q, page: 0, offset: 0 }]);
    return this.pageTemplates.get(key, (slot) => {
      const namespaces = namespaceSlots(slot, namespaceCount);
      const offset = slot('offset') as number;
      return merged
        ? this.mergedPage(q, namespaces, slot('window') as number, offset, recent)
        : this.singlePage(q, namespaces, offset);
    });
  }

  private readonly pageTemplates = new TemplateCache<SearchArgs, StudyListed>(SEARCH_TEMPLATES);

  /**
   * The page as one query over all namespaces: its sort keys and uuids first (from a covering
   * index when the filter's index holds them), then only the page's own rows from the table.
   */
  private singlePage(q: StudyQuery, namespaces: string[], offset: number) {
    const page = applyStudySort(applyStudyFilters(this.db, this.db.selectFrom('studies'), q, namespaces), q)
      .select(sortKeyColumns(q).map((column) => `studies.${column}` as const))
      .limit(q.rows + 1)
      .offset(offset)
      .as('page');
    let query = this.db
      .selectFrom(page)
      .innerJoin('studies', 'studies.uuid', 'page.uuid')
      .select(LISTED_SELECTION);
    for (const t of studySortTerms(q, 'page')) query = query.orderBy(t.expr, t.direction);
    return query;
  }

  /**
   * The same page as one query over all namespaces, read as one sorted stream per namespace:
   * each namespace's first `window` rows come in index order from its (namespace_id, sort key)
   * index and stop early, then the few rows of all streams are merged and sorted. One query over
   * `namespace_id in (…)` cannot use such an index for the order and sorts every match instead.
   * The streams carry only the sort keys and uuid, which the search indexes hold, so they are read
   * from the index alone (or, when they must be sorted, sorted as small keys); only the page's
   * own rows are then read from the table.
   */
  private mergedPage(
    q: StudyQuery,
    namespaces: string[],
    window: number,
    offset: number,
    recent?: boolean[],
  ) {
    const keys = sortKeyColumns(q);
    const sortedStream = (ns: string) =>
      applyStudySort(applyStudyFilters(this.db, this.db.selectFrom('studies'), q, [ns], 'exists'), q)
        .select(keys.map((column) => `studies.${column}` as const))
        .limit(window);
    const sortedArm = (ns: string) => this.db.selectFrom(sortedStream(ns).as('arm')).selectAll();
    // With a recent window (decision 0082), a large namespace's stream first reads its newest
    // studies only (`recent<i>`, materialized once). When they hold `window` matches, those are
    // exactly the stream's first `window` rows; otherwise the stream is read as without the window,
    // sorted. Exactly one of the two answers each namespace: each is joined after the one-row
    // count of `recent<i>` (CROSS JOIN keeps that order in SQLite), so the other's condition is
    // false before it reads a row.
    const recentName = (i: number) => `recent${i}`;
    const filled = (i: number) => sql<{ n: number }>`(select count(*) as n from ${sql.table(recentName(i))})`;
    const arms = namespaces.flatMap((ns, i) =>
      recent?.[i]
        ? [
            this.db
              .selectFrom(filled(i).as('filled'))
              .crossJoin(sql.table(recentName(i)).as('arm'))
              .select(keys.map((column) => sql.ref(`arm.${column}`).as(column)))
              .where(sql.ref('filled.n'), '>=', window),
            this.db
              .selectFrom(filled(i).as('filled'))
              .crossJoin(sortedStream(ns).as('arm'))
              .select(keys.map((column) => sql.ref(`arm.${column}`).as(column)))
              .where(sql.ref('filled.n'), '<', window),
          ]
        : [sortedArm(ns)],
    );
    const union = arms.slice(1).reduce((all, arm) => all.unionAll(arm), arms[0]!);
    // Materialized, so each stream is planned for all of its `window` rows: as a subquery under the
    // page's LIMIT, PostgreSQL planned each stream for the few rows the merge would take from it and
    // chose a backward scan of the plain upload-time index, reading thousands of rows per namespace
    // for a date range, over an index-only read of the date index's matches. The page's keys are
    // then cut from the merged streams, so only the page's own rows are read from the table.
    let db = this.db as unknown as QueryCreator<Database>;
    if (recent) {
      namespaces.forEach((ns, i) => {
        if (!recent[i]) return;
        const stream = applyStudySort(
          applyStudyFilters(this.db, recentStudies(this.db, ns, this.recent ?? RECENT_DEFAULTS), q, [ns]),
          q,
        )
          .select(keys.map((column) => `studies.${column}` as const))
          .limit(window);
        db = db.with(
          (cte) => cte(recentName(i)).materialized(),
          () => stream,
        ) as unknown as QueryCreator<Database>;
      });
    }
    let query = db
      .with(
        (cte) => cte('merged').materialized(),
        () => union,
      )
      .with('page', (db) => {
        let page = db.selectFrom('merged').selectAll();
        for (const t of studySortTerms(q, 'merged')) page = page.orderBy(t.expr, t.direction);
        return page.limit(q.rows + 1).offset(offset);
      })
      .selectFrom('page')
      .innerJoin('studies', 'studies.uuid', 'page.uuid')
      .select(LISTED_SELECTION);
    for (const t of studySortTerms(q, 'page')) query = query.orderBy(t.expr, t.direction);
    return query;
  }

  async count(q: StudyQuery, namespaces: string[]): Promise<number> {
    if (!namespaces.length) return 0;
    // The total, like the page, is compiled once per search and number of namespaces.
    const key = JSON.stringify([namespaces.length, { ...q, sort: [], rows: 0, page: 0, offset: 0 }]);
    const template = this.countTemplates.get(key, (slot) => {
      const slots = namespaceSlots(slot, namespaces.length);
      return countableFromCounts(q)
        ? totalFromCountsQuery(this.db, q, slots)
        : applyStudyFilters(this.db, this.db.selectFrom('studies'), q, slots).select((eb) =>
            eb.fn.countAll<number>().as('n'),
          );
    });
    const { rows } = await template.execute(this.db, searchArgs(namespaces));
    return Number(rows[0]?.n ?? 0);
  }

  private readonly countTemplates = new TemplateCache<SearchArgs, { n: number }>(SEARCH_TEMPLATES);

  /** A page's tags and stored custom fields; what modules add comes from kernel/study-extras.ts. */
  async extras(uuids: string[]): Promise<StudyExtras> {
    const tags = new Map<string, string[]>();
    const customFields = new Map<string, StudyCustomFieldValue[]>();
    if (!uuids.length) return { tags, customFields };
    for (const r of await this.extrasOf.execute(this.db, uuids)) {
      if (r.kind === 'tag') {
        const list = tags.get(r.study_uuid);
        if (list) list.push(r.key);
        else tags.set(r.study_uuid, [r.key]);
        continue;
      }
      const value: StudyCustomFieldValue =
        r.field_name === null
          ? { name: r.key, value: r.value }
          : { uuid: r.key, name: r.field_name, value: r.value };
      const list = customFields.get(r.study_uuid);
      if (list) list.push(value);
      else customFields.set(r.study_uuid, [value]);
    }
    return { tags, customFields };
  }

  // A page's tags and custom fields in one statement (every study/list reads them), compiled once
  // per page length: tags by name, then fields by key.
  private readonly extrasOf = new InListTemplate((uuids) =>
    this.db
      .selectFrom('study_tags')
      .select([
        'study_uuid',
        sql<'tag' | 'field'>`'tag'`.as('kind'),
        'tag as key',
        sql<string | null>`null`.as('value'),
        sql<string | null>`null`.as('field_name'),
      ])
      .where('study_uuid', 'in', uuids)
      .unionAll(
        this.db
          // Values of account-defined fields are keyed by the definition's uuid: answer its name.
          .selectFrom('study_customfields')
          .leftJoin('custom_fields', 'custom_fields.uuid', 'study_customfields.name')
          .select([
            'study_customfields.study_uuid',
            sql<'tag' | 'field'>`'field'`.as('kind'),
            'study_customfields.name as key',
            'study_customfields.value',
            'custom_fields.name as field_name',
          ])
          .where('study_customfields.study_uuid', 'in', uuids),
      )
      .orderBy('kind', 'desc')
      .orderBy('key'),
  );

  findByUuid(uuid: string): Promise<StudyRow | undefined> {
    return this.db.selectFrom('studies').selectAll().where('uuid', '=', uuid).executeTakeFirst();
  }

  findByUid(studyUid: string, namespaces: string[]): Promise<StudyRow[]> {
    if (!namespaces.length) return Promise.resolve([]);
    return this.db
      .selectFrom('studies')
      .selectAll()
      .where('study_uid', '=', studyUid)
      .where('namespace_id', 'in', namespaces)
      .execute();
  }

  /**
   * Is there a live (not deleted) copy of the study in one of these namespaces? A study/add whose
   * upload has sent nothing yet (UPLOADING, no image) is no copy: the exam can still be uploaded.
   */
  async existsIn(studyUid: string, namespaces: string[]): Promise<boolean> {
    if (!namespaces.length) return false;
    const row = await this.db
      .selectFrom('studies')
      .select('uuid')
      .where('study_uid', '=', studyUid)
      .where('namespace_id', 'in', namespaces)
      .where('deleted', 'is', null)
      .where((eb) => eb.or([eb('study_status', '!=', STUDY_STATUS.uploading), eb('image_count', '>', 0)]))
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The study of a namespace with this Study Instance UID (deleted or not): what more files would join. */
  async findInNamespace(namespaceId: string, studyUid: string) {
    return this.db
      .selectFrom('studies')
      .select(['uuid', 'patient_name', 'patientid', 'series_count', 'deleted'])
      .where('namespace_id', '=', namespaceId)
      .where('study_uid', '=', studyUid)
      .executeTakeFirst();
  }

  async update(uuid: string, changes: Updateable<StudyTable>): Promise<void> {
    await this.db.updateTable('studies').set(changes).where('uuid', '=', uuid).execute();
  }

  /** Gives a study a share message unless it already has one (the first link's description stays). */
  async setShareMessageIfNone(uuid: string, message: string): Promise<void> {
    await this.db
      .updateTable('studies')
      .set({ share_message: message })
      .where('uuid', '=', uuid)
      .where('share_message', 'is', null)
      .execute();
  }

  /**
   * Takes (or, for its holder, renews) the lock when it is free, ours, or lapsed (taken at or
   * before `lapsedAt`); false when someone else holds a live lock. One compare-and-set, so two
   * users racing for a free lock cannot both get it.
   */
  async lock(uuid: string, userId: string, at: number, lapsedAt: number): Promise<boolean> {
    const result = await this.db
      .updateTable('studies')
      .set({ is_locked: 1, locked_by: userId, locked_at: at, updated: at })
      .where('uuid', '=', uuid)
      .where((eb) => this.freeOrOurs(eb, userId, lapsedAt))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Releases the lock when it is ours, free or lapsed; false when someone else holds a live lock. */
  async unlock(uuid: string, userId: string, at: number, lapsedAt: number): Promise<boolean> {
    const result = await this.db
      .updateTable('studies')
      .set({ is_locked: 0, locked_by: null, locked_at: null, updated: at })
      .where('uuid', '=', uuid)
      .where((eb) => this.freeOrOurs(eb, userId, lapsedAt))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Releases the lock whoever holds it (an admin breaking it); the lock as it was, if there was one. */
  async breakLock(
    uuid: string,
    at: number,
  ): Promise<{ locked_by: string | null; locked_at: number | null } | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('studies')
        .select(['locked_by', 'locked_at'])
        .where('uuid', '=', uuid)
        .where('is_locked', '=', 1)
        .executeTakeFirst();
      if (!before) return undefined;
      await trx
        .updateTable('studies')
        .set({ is_locked: 0, locked_by: null, locked_at: null, updated: at })
        .where('uuid', '=', uuid)
        .execute();
      return before;
    });
  }

  private freeOrOurs(eb: ExpressionBuilder<Database, 'studies'>, userId: string, lapsedAt: number) {
    return eb.or([
      eb('is_locked', '=', 0),
      eb('locked_by', '=', userId),
      eb('locked_at', 'is', null),
      eb('locked_at', '<=', lapsedAt),
    ]);
  }

  /** The study's custom field values by key (a definition's uuid, or a workflow field's name). */
  async customFieldValues(uuid: string): Promise<Map<string, string | null>> {
    const rows = await this.db
      .selectFrom('study_customfields')
      .select(['name', 'value'])
      .where('study_uuid', '=', uuid)
      .execute();
    return new Map(rows.map((r) => [r.name, r.value]));
  }

  async setCustomFields(uuid: string, fields: Record<string, string | null>): Promise<void> {
    const entries = Object.entries(fields);
    if (!entries.length) return;
    await this.db.transaction().execute(async (trx) => {
      for (const [name, value] of entries) {
        await trx
          .insertInto('study_customfields')
          .values({ study_uuid: uuid, name, value })
          .onConflict((oc) => oc.columns(['study_uuid', 'name']).doUpdateSet({ value }))
          .execute();
      }
    });
  }
}
