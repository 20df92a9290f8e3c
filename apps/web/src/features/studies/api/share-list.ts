import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';

export interface StudyShare {
  uuid: string;
  type: 'user' | 'group';
  name: string;
  user_email?: string | null;
  message?: string | null;
  created: string;
}

/** Who a study is shared with. */
export const shareListQuery = (uuid: string) =>
  queryOptions({
    queryKey: ['study', 'share', 'list', uuid],
    queryFn: ({ signal }) => apiGet<{ shares: StudyShare[] }>('study/share/list', { uuid }, { signal }),
    select: (answer) => answer.shares,
  });
