import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { EventFlagName, NotificationPreference } from '@imaging-inbox/contract';
import { api } from '../../../lib/api-client';

const KEY = ['user', 'event', 'list'] as const;

/** user/event/list: the flags of every namespace the user belongs to. */
export const notificationPreferencesQuery = () =>
  queryOptions({
    queryKey: KEY,
    queryFn: ({ signal }) => api.get('user/event/list', {}, { signal }),
    select: (answer) => answer.events,
  });

export interface SetFlagVars {
  namespaceId: string;
  flag: EventFlagName;
  value: 0 | 1;
}

/**
 * user/event/set (a GET in the spec) for one flag: the switch moves at once and moves back if
 * the server refuses; the list is refetched either way so it shows what is stored.
 */
export const useSetNotificationPreference = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ namespaceId, flag, value }: SetFlagVars) =>
      api.get('user/event/set', { namespace_id: namespaceId, [flag]: value }),
    onMutate: async ({ namespaceId, flag, value }: SetFlagVars) => {
      await queryClient.cancelQueries({ queryKey: KEY });
      const previous = queryClient.getQueryData<{ events: NotificationPreference[] }>(KEY);
      queryClient.setQueryData<{ events: NotificationPreference[] }>(KEY, (answer) =>
        answer
          ? {
              ...answer,
              events: answer.events.map((p) =>
                p.namespace_id === namespaceId ? { ...p, [flag]: value } : p,
              ),
            }
          : answer,
      );
      return { previous };
    },
    onError: (_error, _vars, context) => {
      if (context?.previous) queryClient.setQueryData(KEY, context.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
};
