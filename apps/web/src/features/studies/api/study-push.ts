import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SEARCH_POLL_MS } from '@imaging-inbox/contract';
import { api } from '../../../lib/api-client';

const pushesKey = (studyUuid: string) => ['study-pushes', studyUuid] as const;

/** The study's push attempts, newest first (study/push/list), polled while one is queued or sending. */
export const useStudyPushes = (studyUuid: string) =>
  useQuery({
    queryKey: pushesKey(studyUuid),
    queryFn: ({ signal }) => api.get('study/push/list', { uuid: studyUuid }, { signal }),
    select: (answer) => answer.pushes,
    refetchInterval: (query) =>
      query.state.data?.pushes.some((p) => p.status === 'I' || p.status === 'N') ? SEARCH_POLL_MS : false,
  });

/** Pushes the study to a destination (study/push); after a partial or failed attempt, the Retry. */
export const usePushStudy = (studyUuid: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (destinationId: string) =>
      api.call('study/push', { uuid: studyUuid, destination_id: destinationId }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: pushesKey(studyUuid) }),
  });
};
