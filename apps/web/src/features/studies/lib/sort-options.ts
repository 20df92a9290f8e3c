import {
  DEFAULT_STUDY_SORT,
  NOMINATION_ONLY_SORTS,
  STUDY_SORTS,
  type StudySortLabel,
} from '@imaging-inbox/contract';
import type { InboxGroupType } from '../../../session/groups';

const ALL_SORT_LABELS = Object.keys(STUDY_SORTS) as StudySortLabel[];

/** Sort options a state offers: the nomination-only ones (and Priority) in gatekeeper Nominations only. */
export function sortOptions(groupType: InboxGroupType, state: string): StudySortLabel[] {
  if (groupType === 'GATEKEEPER' && state === 'Nominations') return ALL_SORT_LABELS;
  return ALL_SORT_LABELS.filter((label) => !NOMINATION_ONLY_SORTS.includes(label));
}

/** The sort to use: the current one if the state allows it, else Newest upload. */
export function effectiveSort(sort: string, options: StudySortLabel[]): string {
  return options.some((label) => STUDY_SORTS[label] === sort) ? sort : DEFAULT_STUDY_SORT;
}
