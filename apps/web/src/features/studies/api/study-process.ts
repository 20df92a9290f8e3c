import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/**
 * study/process: the server locks the nomination, writes the order's attributes into it, unlocks it
 * and queues the push in one call, so a page closed half-way leaves nothing half done. The lists are
 * refreshed when the view moves to Queued, so the banner shows over the exam first.
 */
export const useProcessNomination = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (params: Record<string, string>) => api.call('study/process', params),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['study', 'nomination'] }),
  });
};
