import { STUDY_SORTS } from '@imaging-inbox/contract';

/** The columns a power user can sort by: only those the study search already sorts on. */
export const SORTABLE_COLUMNS = {
  patient: { asc: STUDY_SORTS['Name (A to Z)'], desc: STUDY_SORTS['Name (Z to A)'] },
  studyDate: { asc: STUDY_SORTS['Oldest exam date'], desc: STUDY_SORTS['Newest exam date'] },
  uploaded: { asc: STUDY_SORTS['Oldest upload'], desc: STUDY_SORTS['Newest upload'] },
} as const;

export type SortableColumn = keyof typeof SORTABLE_COLUMNS;

/** Which way `column` is sorted by `sort`, or false when the list is sorted by another column. */
export function columnDirection(sort: string, column: SortableColumn): 'asc' | 'desc' | false {
  const keys = SORTABLE_COLUMNS[column];
  if (sort === keys.asc) return 'asc';
  if (sort === keys.desc) return 'desc';
  return false;
}

/**
 * The sort after a click on `column`'s header: the other direction when it is already the sort,
 * else names start A to Z and dates newest first (what a reader looks for first).
 */
export function nextSort(sort: string, column: SortableColumn): string {
  const keys = SORTABLE_COLUMNS[column];
  const current = columnDirection(sort, column);
  if (current === 'asc') return keys.desc;
  if (current === 'desc') return keys.asc;
  return column === 'patient' ? keys.asc : keys.desc;
}

/** The sort the worklist uses: the search's when a column offers it, else newest upload first. */
export function worklistSort(sort: string): string {
  const known = Object.values(SORTABLE_COLUMNS).some((k) => k.asc === sort || k.desc === sort);
  return known ? sort : SORTABLE_COLUMNS.uploaded.desc;
}
