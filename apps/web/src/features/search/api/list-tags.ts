import { queryOptions } from '@tanstack/react-query';
import { TAG_LOOKUP_ROWS } from '@imaging-inbox/contract';
import { api } from '../../../lib/api-client';

/** Tag suggestions for a typed prefix, 25 rows. */
export const tagListQuery = (text: string) =>
  queryOptions({
    queryKey: ['tag', 'list', text],
    queryFn: ({ signal }) =>
      api.get('tag/list', { 'filter.tag.like': `%${text}%`, 'page.rows': TAG_LOOKUP_ROWS }, { signal }),
    enabled: text !== '',
    staleTime: 60_000,
  });
