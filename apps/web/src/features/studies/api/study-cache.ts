import type { QueryClient } from '@tanstack/react-query';
import type { Study, StudyListAnswer } from '@imaging-inbox/contract';

/** Patches one study in every cached study/list page (optimistic updates); returns an undo. */
export function patchStudyInLists(queryClient: QueryClient, uuid: string, patch: (study: Study) => Study) {
  const previous = queryClient.getQueriesData<StudyListAnswer>({ queryKey: ['study', 'list'] });
  queryClient.setQueriesData<StudyListAnswer>({ queryKey: ['study', 'list'] }, (answer) =>
    answer ? { ...answer, studies: answer.studies.map((s) => (s.uuid === uuid ? patch(s) : s)) } : answer,
  );
  return () => {
    for (const [key, data] of previous) queryClient.setQueryData(key, data);
  };
}

/** Refetches study lists, counts and open histories (after delete, restore, share, edit, marks). */
export function refreshStudies(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ['audit', 'object'] }),
    queryClient.invalidateQueries({ queryKey: ['study', 'list'] }),
    queryClient.invalidateQueries({ queryKey: ['study', 'count'] }),
  ]);
}
