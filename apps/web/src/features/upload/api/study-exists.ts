import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';

/** study/exists for each study UID in the destination's account: the set of those already stored. */
export function useExistingStudies(studyUids: string[], accountUuid: string | undefined) {
  return useQuery({
    queryKey: ['study', 'exists', accountUuid, studyUids],
    queryFn: async ({ signal }) => {
      const answers = await Promise.all(
        studyUids.map((studyUID) =>
          apiGet<{ exists: 0 | 1 }>('study/exists', { studyUID, accountUuid }, { signal }),
        ),
      );
      return new Set(studyUids.filter((_, i) => answers[i]?.exists === 1));
    },
    enabled: accountUuid !== undefined && studyUids.length > 0,
    staleTime: 0,
    gcTime: 0,
  });
}
