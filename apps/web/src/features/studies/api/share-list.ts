import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Who a study is shared with, and its owner (the fixed first entry). */
export const shareListQuery = (uuid: string) =>
  queryOptions({
    queryKey: ['study', 'share', 'list', uuid],
    queryFn: ({ signal }) => api.get('study/share/list', { uuid }, { signal }),
    select: (answer) => ({ owner: answer.owner, shares: answer.shares }),
  });
