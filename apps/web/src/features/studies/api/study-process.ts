import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StudyProcessAnswer } from '@imaging-inbox/contract';
import { apiPost } from '../../../lib/api-client';
import { refreshStudies } from './study-cache';

/**
 * study/process: the server locks the nomination, writes the order's attributes into it, unlocks it
 * and queues the push in one call, so a page closed half-way leaves nothing half done.
 */
export const useProcessNomination = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (params: Record<string, string>) => apiPost<StudyProcessAnswer>('study/process', params),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['study', 'nomination'] }),
        refreshStudies(queryClient),
      ]),
  });
};
