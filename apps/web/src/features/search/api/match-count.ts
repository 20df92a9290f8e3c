import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { StudyFilters } from '@imaging-inbox/contract';
import { api } from '../../../lib/api-client';

/**
 * How many studies a set of filters matches (study/count). The key is the study list's count key,
 * so the advanced panel's preview and the list it leads to share one answer.
 */
export const matchCountQuery = (filters: StudyFilters) =>
  queryOptions({
    queryKey: ['study', 'count', filters],
    queryFn: ({ signal }) => api.call('study/count', filters, { signal }),
    placeholderData: keepPreviousData,
  });
