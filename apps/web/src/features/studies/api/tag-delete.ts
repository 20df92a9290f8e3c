import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { patchStudyInLists, refreshStudies } from './study-cache';

interface TagVars {
  uuid: string;
  tag: string;
}

/** tag/delete on a study, shown at once and confirmed by a refetch. */
export const useDeleteTag = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uuid, tag }: TagVars) => api.call('tag/delete', { object: 'study', object_id: uuid, tag }),
    onMutate: ({ uuid, tag }: TagVars) => ({
      undo: patchStudyInLists(queryClient, uuid, (s) => ({ ...s, tags: s.tags.filter((t) => t !== tag) })),
    }),
    onError: (_error, _vars, context) => context?.undo(),
    onSettled: () => refreshStudies(queryClient),
  });
};
