import type { Kysely, SelectQueryBuilder } from 'kysely';
import { sql } from 'kysely';
import { isKnownModality, modalityMask, UNLISTED_STUDY_STATUSES } from '@imaging-inbox/contract';
import type { Database } from '../db/schema.js';
import type { StudyQuery } from './study-query.types.js';

/**
 * The total of a broad search from the maintained counts (migration 20261129T0100, decision 0046)
 * instead of one index entry per matching study. They hold studies per namespace, trash or not,
 * status and modality mask, by month, by study date and with no date (decision 0079), so they
 * answer a search whose only filters are those: no filter, a study date range, known modalities, the trash, and their combinations.
 * Any other filter (text, tags, custom fields, star…) is counted from the studies themselves.
 */
export function countableFromCounts(q: StudyQuery): boolean {
  return filtersOnlyDateStatusModality(q) && q.created.ge === undefined && q.created.le === undefined;
}

/**
 * Whether a search filters on nothing but the study date, the upload time, the trash, the status
 * and known modalities: the columns the maintained counts and the upload-time index
 * (`studies_live_ns_created_dates`, decision 0082) hold.
 */
export function filtersOnlyDateStatusModality(q: StudyQuery): boolean {
  return (
    q.text.length === 0 &&
    q.smart === undefined &&
    q.star === undefined &&
    q.thin === undefined &&
    q.mustApprove === undefined &&
    !q.pushStatus?.length &&
    !q.sharedOnly &&
    !q.hasDirectShares &&
    !q.tags?.length &&
    q.customFields.length === 0 &&
    (!q.modalities?.length || q.modalities.every(isKnownModality))
  );
}

type CountsTable = 'study_count_totals' | 'study_counts_by_month' | 'study_counts_by_day';

type CountsQuery<T extends CountsTable> = SelectQueryBuilder<Database, T, object>;

/**
 * The query of the total (one row, `n`) of exactly the studies `applyStudyFilters` would count.
 * A date range is the months wholly inside it (m01 to m31 within the bounds, so all the month's
 * studies match) plus the matching days of every other month and of the studies whose date is no
 * calendar date (month ''), each day compared as studies.study_date is.
 */
export function totalFromCountsQuery(db: Kysely<Database>, q: StudyQuery, namespaces: string[]) {
  const { ge, le } = q.studyDate;
  const mask = q.modalities?.length ? modalityMask(q.modalities) : undefined;
  const narrow = <T extends CountsTable>(query: CountsQuery<T>) => {
    let narrowed = query
      .where(sql.ref('namespace_id'), 'in', namespaces)
      .where(sql.ref('deleted'), '=', q.deleted ? 1 : 0)
      .where(sql.ref('study_status'), 'not in', [...UNLISTED_STUDY_STATUSES]);
    if (mask !== undefined) narrowed = narrowed.where(sql<boolean>`(modality_bits & ${mask}) <> 0`);
    return narrowed;
  };
  // No date range: the totals with no date (a few rows per namespace, not one per month).
  if (ge === undefined && le === undefined) {
    return narrow(db.selectFrom('study_count_totals')).select(sql<number>`coalesce(sum(n), 0)`.as('n'));
  }
  const bounds = wholeMonths(ge, le).map((b) => sql`month ${sql.raw(b.op)} ${b.month}`);
  const wholeMonth = sql<boolean>`${sql.join([sql`month <> ''`, ...bounds], sql` and `)}`;
  const months = narrow(db.selectFrom('study_counts_by_month'))
    .select(sql<number>`coalesce(sum(n), 0)`.as('n'))
    .where(wholeMonth);
  let days = narrow(db.selectFrom('study_counts_by_day'))
    .select(sql<number>`coalesce(sum(n), 0)`.as('n'))
    .where(sql<boolean>`not (${wholeMonth})`);
  if (ge !== undefined) days = days.where('study_date', '>=', ge);
  if (le !== undefined) days = days.where('study_date', '<=', le);
  return db.selectNoFrom(sql<number>`(${months}) + (${days})`.as('n'));
}

/** A bound on the month column: the operator is one of these four, never user input. */
export interface MonthBound {
  op: '>=' | '>' | '<=' | '<';
  month: string;
}

/**
 * The months whose every calendar date (m01 to m31) is within a study date range, as bounds on
 * the month column itself so that the counts' index finds them: `month || '01' >= ge` holds
 * exactly when the month is after ge's month, or is ge's month and ge's day is 01 (or none), and
 * `month || '31' <= le` when the month is before le's, or is le's and le's day is 31. Digit
 * strings of one length sort alike in any collation, so this holds in the database's order too.
 */
export function wholeMonths(ge: string | undefined, le: string | undefined): MonthBound[] {
  const bounds: MonthBound[] = [];
  if (ge !== undefined) bounds.push({ op: '01' >= ge.slice(6) ? '>=' : '>', month: ge.slice(0, 6) });
  if (le !== undefined) bounds.push({ op: '31' <= le.slice(6) ? '<=' : '<', month: le.slice(0, 6) });
  return bounds;
}
