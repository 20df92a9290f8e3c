import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { patchStudyInLists, refreshStudies } from './study-cache';

interface TagVars {
  uuid: string;
  tag: string;
}

/** tag/add on a study, shown at once and confirmed by a refetch. */
export const useAddTag = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uuid, tag }: TagVars) => api.call('tag/add', { object: 'study', object_id: uuid, tag }),
    onMutate: ({ uuid, tag }: TagVars) => ({
      undo: patchStudyInLists(queryClient, uuid, (s) =>
        s.tags.includes(tag) ? s : { ...s, tags: [...s.tags, tag] },
      ),
    }),
    onError: (_error, _vars, context) => context?.undo(),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['tag', 'list'] });
      return refreshStudies(queryClient);
    },
  });
};
