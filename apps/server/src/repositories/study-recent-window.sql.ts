import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database } from '../db/schema.js';
import type { StudyQuery } from './study-query.types.js';
import { filtersOnlyDateStatusModality } from './study-counts.sql.js';

/**
 * How many of a namespace's newest live studies a date range's stream reads backwards in upload
 * order before it gives up and sorts the namespace's matches instead (decision 0082).
 */
export const RECENT_WINDOW = 2_000;

/**
 * A namespace with fewer live studies than this keeps the sorted read: its matches are few enough
 * that sorting them costs less than reading its newest studies until they hold a page. At 20,000
 * studies a namespace (bench:search at 100,000), a 30-day range's 860 matches sorted cost 0.27 ms
 * of SQLite and reading the 1,150 newest studies that hold 51 of them 0.5 ms; at 200,000 the
 * sorted read costs ten times more and the recent read the same (decision 0082).
 */
export const RECENT_MIN_STUDIES = 50_000;

/** How a repository reads date ranges' streams: the window and the namespace size it starts at. */
export interface RecentWindowOptions {
  window: number;
  minStudies: number;
}

export const RECENT_DEFAULTS: RecentWindowOptions = { window: RECENT_WINDOW, minStudies: RECENT_MIN_STUDIES };

/** Beyond this page window (offset + rows + 1) a stream would rarely fill from the recent studies. */
export const RECENT_MAX_WINDOW = 200;

/**
 * The columns a recent-window stream reads from the upload-time index
 * (`studies_live_ns_created_dates`): all that the searches it serves filter and sort on.
 */
const RECENT_COLUMNS = [
  'uuid',
  'created',
  'namespace_id',
  'deleted',
  'study_status',
  'modality_bits',
  'study_date',
] as const;

/**
 * Whether a search's streams may read each namespace's newest studies first: the default order
 * (newest upload first), live studies, a date range (which today sorts all of a namespace's
 * matches by upload time), and no filter on a column the upload-time index does not hold.
 */
export function recentWindowApplies(q: StudyQuery, window: number): boolean {
  const sort = q.sort.length === 1 ? q.sort[0]! : undefined;
  return (
    window <= RECENT_MAX_WINDOW &&
    sort?.field === 'created' &&
    sort.direction === 'desc' &&
    !q.deleted &&
    (q.studyDate.ge !== undefined || q.studyDate.le !== undefined) &&
    filtersOnlyDateStatusModality(q)
  );
}

type StudiesQuery = SelectQueryBuilder<Database, 'studies', object>;

/**
 * A namespace's newest `options.window` live studies in the default order (upload time descending,
 * then uuid), as a table named `studies` holding RECENT_COLUMNS, so that the search's own filters
 * and order apply to it unchanged. It is read in the order of the `(namespace_id, created desc,
 * uuid, …)` index, which holds every one of these columns: no row is sorted and no study row read.
 */
export function recentStudies(
  db: Kysely<Database>,
  namespace: string,
  options: RecentWindowOptions = RECENT_DEFAULTS,
): StudiesQuery {
  const recent = db
    .selectFrom('studies')
    .select(RECENT_COLUMNS.map((column) => `studies.${column}` as const))
    .where('studies.namespace_id', '=', namespace)
    .where('studies.deleted', 'is', null)
    .orderBy('studies.created', 'desc')
    .orderBy('studies.uuid', 'asc')
    .limit(options.window)
    .as('studies');
  // The filters and the order only name RECENT_COLUMNS (recentWindowApplies), all of them here.
  return db.selectFrom(recent);
}
