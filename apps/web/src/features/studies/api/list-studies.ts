import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { StudyFilters } from '@imaging-inbox/contract';
import { api } from '../../../lib/api-client';

export interface StudyListParams {
  filters: StudyFilters;
  sort: string;
  page: number;
  rows: number;
}

/**
 * One page of studies. Each distinct search is its own query key, so an older answer can never
 * overwrite a newer one, and the previous page stays on screen while the next one loads.
 */
export const studyListQuery = (params: StudyListParams) =>
  queryOptions({
    queryKey: ['study', 'list', params],
    queryFn: ({ signal }) =>
      api.call(
        'study/list',
        { ...params.filters, sort_by: params.sort, 'page.rows': params.rows, 'page.number': params.page },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });

export const studyCountQuery = (filters: StudyFilters) =>
  queryOptions({
    queryKey: ['study', 'count', filters],
    queryFn: ({ signal }) => api.call('study/count', filters, { signal }),
    placeholderData: keepPreviousData,
  });
