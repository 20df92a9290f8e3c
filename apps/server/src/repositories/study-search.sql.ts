import type { ExpressionBuilder, Kysely, RawBuilder, SelectQueryBuilder } from 'kysely';
import { sql } from 'kysely';
import { isKnownModality, modalityMask, UNLISTED_STUDY_STATUSES } from '@imaging-inbox/contract';
import type { Database } from '../db/schema.js';
import type { KeyedColumn, PlainColumn, StudyQuery } from './study-query.types.js';

type StudiesQuery = SelectQueryBuilder<Database, 'studies', object>;
type Eb = ExpressionBuilder<Database, 'studies'>;
type StudyColumn = keyof Database['studies'];

const KEYED: Record<KeyedColumn, `${KeyedColumn}_key`> = {
  patient_name: 'patient_name_key',
  patientid: 'patientid_key',
  study_description: 'study_description_key',
  referring_physician: 'referring_physician_key',
};

const isKeyed = (column: string): column is KeyedColumn => column in KEYED;

/**
 * `%` is the only wildcard api/v3 offers; every other character, `_` and `\` included, must match
 * itself, so those are escaped for SQL LIKE (with ESCAPE '\').
 */
export function likePattern(value: string): string {
  return value.replace(/[\\_]/g, (c) => `\\${c}`);
}

/** Upper-casing matches how the `_key` columns are stored. */
export const searchKey = (value: string) => value.toUpperCase();

function textCondition(eb: Eb, column: KeyedColumn | PlainColumn, kind: 'like' | 'equals', value: string) {
  if (isKeyed(column)) {
    const key = KEYED[column];
    const upper = searchKey(value);
    if (kind === 'equals' || !upper.includes('%')) return eb(key, '=', kind === 'equals' ? upper : upper);
    return eb(key, 'like', sql<string>`${likePattern(upper)} escape '\\'`);
  }
  if (kind === 'equals' || !value.includes('%')) return eb(column, '=', value);
  return eb(eb.fn('upper', [column]), 'like', sql<string>`${likePattern(searchKey(value))} escape '\\'`);
}

/**
 * How modality and tag filters are joined: `in` (`studies.uuid in (select study_uuid …)`) suits a
 * count, which reads every match from the small side table; `exists` (a correlated probe of the
 * side table's primary key) suits a page read in index order, which stops after a few rows.
 * Both select exactly the same studies.
 */
export type SemiJoin = 'in' | 'exists';

/**
 * The statuses left out of every listing, written as literals rather than parameters: SQLite uses
 * a partial index whose WHERE names them (`studies_listed_ns_name_created`, decision 0083) only
 * when the query's term is the same expression, values included, and it cannot see a bound
 * parameter's value when it plans. They are constants of the contract, never user input.
 */
const UNLISTED_LITERALS = UNLISTED_STUDY_STATUSES.map((status) => sql.lit(status));

/** Applies every filter of the query to a select over studies, limited to the given namespaces. */
export function applyStudyFilters(
  db: Kysely<Database>,
  base: StudiesQuery,
  q: StudyQuery,
  namespaces: string[],
  semiJoin: SemiJoin = 'in',
): StudiesQuery {
  let query = base.where('studies.namespace_id', 'in', namespaces);
  query = q.deleted
    ? query.where('studies.deleted', 'is not', null)
    : query.where('studies.deleted', 'is', null);
  // A study a retrieve or an upload is still filling is not listed half-way (it shows once it ends).
  query = query.where('studies.study_status', 'not in', UNLISTED_LITERALS);
  for (const t of q.text) {
    query = query.where((eb) => textCondition(eb, t.column, t.kind, t.kind === 'like' ? t.pattern : t.value));
  }
  if (q.smart) {
    const smart = q.smart;
    const pattern = smart.includes('%') ? smart : `${smart}%`;
    query = query.where((eb) =>
      eb.or([
        textCondition(eb, 'patient_name', 'like', pattern),
        textCondition(eb, 'patientid', 'equals', smart),
        eb('studies.accession_number', '=', smart),
      ]),
    );
  }
  if (q.star !== undefined) query = query.where('studies.star', '=', q.star);
  if (q.thin !== undefined) query = query.where('studies.thin', '=', q.thin);
  if (q.mustApprove !== undefined) query = query.where('studies.must_approve', '=', q.mustApprove);
  if (q.pushStatus?.length) query = query.where('studies.push_status', 'in', q.pushStatus);
  if (q.sharedOnly) query = query.where('studies.source', '=', 'share');
  if (q.hasDirectShares) query = query.where('studies.direct_share_count', '>', 0);
  if (q.studyDate.ge) query = query.where('studies.study_date', '>=', q.studyDate.ge);
  if (q.studyDate.le) query = query.where('studies.study_date', '<=', q.studyDate.le);
  if (q.created.ge !== undefined) query = query.where('studies.created', '>=', q.created.ge);
  if (q.created.le !== undefined) query = query.where('studies.created', '<=', q.created.le);
  if (q.modalities?.length && q.modalities.every(isKnownModality)) {
    // Known modalities: one integer test against the study's modality mask.
    const mask = modalityMask(q.modalities);
    query = query.where(sql<boolean>`(studies.modality_bits & ${mask}) <> 0`);
  } else if (q.modalities?.length) {
    query = whereSideTable(db, query, 'study_modalities', 'modality', q.modalities, semiJoin);
  }
  if (q.tags?.length) query = whereSideTable(db, query, 'study_tags', 'tag', q.tags, semiJoin);
  for (const cf of q.customFields) {
    const values = db.selectFrom('study_customfields').select('study_uuid').where('name', '=', cf.name);
    if (cf.op === 'is_null') {
      query = query.where(
        'studies.uuid',
        'not in',
        values.where('value', 'is not', null).where('value', '!=', ''),
      );
    } else if (cf.op === 'like') {
      query = query.where(
        'studies.uuid',
        'in',
        values.where(
          sql<string>`upper(value)`,
          'like',
          sql<string>`${likePattern(searchKey(cf.values[0] ?? ''))} escape '\\'`,
        ),
      );
    } else {
      query = query.where('studies.uuid', 'in', values.where('value', 'in', cf.values));
    }
  }
  return query;
}

/** Studies having at least one row in a side table (modalities, tags) whose column is among values. */
function whereSideTable(
  db: Kysely<Database>,
  query: StudiesQuery,
  table: 'study_modalities' | 'study_tags',
  column: 'modality' | 'tag',
  values: string[],
  semiJoin: SemiJoin,
): StudiesQuery {
  if (semiJoin === 'exists') {
    return query.where((eb) =>
      eb.exists(
        eb
          .selectFrom(table)
          .select(sql<string>`${sql.ref(`${table}.study_uuid`)}`.as('study_uuid'))
          .where(sql.ref(`${table}.study_uuid`), '=', sql.ref('studies.uuid'))
          .where(sql.ref(`${table}.${column}`), 'in', values),
      ),
    );
  }
  return query.where(
    'studies.uuid',
    'in',
    db
      .selectFrom(table)
      .select(sql<string>`${sql.ref(`${table}.study_uuid`)}`.as('study_uuid'))
      .where(sql.ref(`${table}.${column}`), 'in', values),
  );
}

const SORT_COLUMNS: Record<string, string> = {
  patient_name: 'patient_name_key',
  patientid: 'patientid_key',
};

/**
 * The ORDER BY terms of the query over `table` (studies itself, or a derived table with the
 * same columns), ending with uuid so that pages are stable.
 */
export function studySortTerms(
  q: StudyQuery,
  table = 'studies',
): { expr: RawBuilder<unknown>; direction: 'asc' | 'desc' }[] {
  const terms: { expr: RawBuilder<unknown>; direction: 'asc' | 'desc' }[] = [];
  for (const s of q.sort) {
    if (s.field === 'customfield' && s.customField) {
      const name = s.customField;
      // Studies without the field sort last in either direction.
      const value = sql`(select value from study_customfields cf where cf.study_uuid = ${sql.ref(`${table}.uuid`)} and cf.name = ${name})`;
      terms.push({ expr: sql`case when ${value} is null then 1 else 0 end`, direction: 'asc' });
      terms.push({ expr: value, direction: s.direction });
    } else {
      terms.push({ expr: sql.ref(`${table}.${SORT_COLUMNS[s.field] ?? s.field}`), direction: s.direction });
    }
  }
  terms.push({ expr: sql.ref(`${table}.uuid`), direction: 'asc' });
  return terms;
}

/**
 * The columns of studies that the query's order reads: uuid (the last term, and what a custom
 * field's value is looked up by) and each sorted column.
 */
export function sortKeyColumns(q: StudyQuery): StudyColumn[] {
  const columns = new Set<StudyColumn>(['uuid']);
  for (const s of q.sort) {
    if (s.field === 'customfield') continue;
    columns.add((SORT_COLUMNS[s.field] ?? s.field) as StudyColumn);
  }
  return [...columns];
}

export function applyStudySort(query: StudiesQuery, q: StudyQuery): StudiesQuery {
  for (const t of studySortTerms(q)) query = query.orderBy(t.expr, t.direction);
  return query;
}
