import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Account members the study can be shared with (all but the caller). */
export const shareableUsersQuery = (uuid: string, enabled: boolean) =>
  queryOptions({
    queryKey: ['study', 'share', 'who', uuid, 'user'],
    queryFn: ({ signal }) => api.get('study/share/who', { uuid, type: 'user' }, { signal }),
    select: (answer) => answer.users,
    enabled,
  });

/** Account groups the study can be shared with (all but its own). */
export const shareableGroupsQuery = (uuid: string, enabled: boolean) =>
  queryOptions({
    queryKey: ['study', 'share', 'who', uuid, 'group'],
    queryFn: ({ signal }) => api.get('study/share/who', { uuid, type: 'group' }, { signal }),
    select: (answer) => answer.groups,
    enabled,
  });
