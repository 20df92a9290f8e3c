import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { StudyShare } from '@imaging-inbox/contract';
import { refreshStudies } from './study-cache';

/** study/share/stop for one recipient of the share list. */
export const useStopShare = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uuid, share }: { uuid: string; share: StudyShare }) =>
      api.call(
        'study/share/stop',
        share.type === 'group' ? { uuid, group_id: share.uuid } : { uuid, user_id: share.uuid },
      ),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['study', 'share', 'list'] });
      void queryClient.invalidateQueries({ queryKey: ['audit', 'object'] });
      return refreshStudies(queryClient);
    },
  });
};
