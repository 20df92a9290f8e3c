import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { patchStudyInLists, refreshStudies } from './study-cache';

interface StarVars {
  uuid: string;
  star: 0 | 1;
}

/** study/star, shown at once and confirmed by a refetch. */
export const useStarStudy = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uuid, star }: StarVars) => api.call('study/star', { uuid, star }),
    onMutate: ({ uuid, star }: StarVars) => ({
      undo: patchStudyInLists(queryClient, uuid, (s) => ({ ...s, star })),
    }),
    onError: (_error, _vars, context) => context?.undo(),
    onSettled: () => refreshStudies(queryClient),
  });
};
