import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { refreshStudies } from './study-cache';

const nominationKey = (studyUuid: string) => ['study', 'nomination', studyUuid] as const;

/**
 * The study's nomination status and history (study/nomination): for the nominator's study, or the
 * gatekeeper's copy (the nomination it came from). Polled while the exam is being processed or sent,
 * so the nominator sees NOMINATION_SUCCESS, and the gatekeeper the end of processing, without reloading.
 */
export const useNomination = (studyUuid: string) =>
  useQuery({
    queryKey: nominationKey(studyUuid),
    queryFn: ({ signal }) => api.get('study/nomination', { uuid: studyUuid }, { signal }),
    refetchInterval: (query) => {
      const status = query.state.data?.nomination?.status;
      return status === 'PROCESSING' || status === 'EVALUATING' ? 5000 : false;
    },
  });

/** After a decision on a nomination: its status, the lists (the card moves state) and the history. */
function useRefreshNomination(studyUuid: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: nominationKey(studyUuid) }),
      refreshStudies(queryClient),
    ]);
}

export interface NominateInput {
  gatekeeperId: string;
  answers: Record<string, string>;
}

/** study/nominate: the form's answers go as `customfield-{name}` parameters. */
export const useNominate = (studyUuid: string) => {
  const refresh = useRefreshNomination(studyUuid);
  return useMutation({
    mutationFn: ({ gatekeeperId, answers }: NominateInput) =>
      api.call('study/nominate', {
        uuid: studyUuid,
        gatekeeper_id: gatekeeperId,
        ...Object.fromEntries(Object.entries(answers).map(([name, value]) => [`customfield-${name}`, value])),
      }),
    onSettled: refresh,
  });
};

/** study/nominate/cancel: the nominator withdraws the live nomination. */
export const useCancelNomination = (studyUuid: string) => {
  const refresh = useRefreshNomination(studyUuid);
  return useMutation({
    mutationFn: () => api.call('study/nominate/cancel', { uuid: studyUuid }),
    onSettled: refresh,
  });
};

export interface RejectInput {
  reason: string;
  message: string;
}

/**
 * study/reject: the gatekeeper rejects the nomination (its copy) with a reason and a message. The
 * lists are refreshed when the view moves to Rejected, so the banner shows over the exam first.
 */
export const useRejectNomination = (copyUuid: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ reason, message }: RejectInput) =>
      api.call('study/reject', { uuid: copyUuid, reason, message }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: nominationKey(copyUuid) }),
  });
};
