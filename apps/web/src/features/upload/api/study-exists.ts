import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { runJobs } from '../../../lib/job-queue';

/**
 * study/exists calls in flight at once. A folder of a few hundred studies used to fire them all in
 * one go, which held the page for a second starting them; the browser runs six per host anyway.
 */
export const EXISTS_CONCURRENCY = 6;

/** study/exists for each study UID in the destination's account: the set of those already stored. */
export function useExistingStudies(studyUids: string[], accountUuid: string | undefined) {
  return useQuery({
    queryKey: ['study', 'exists', accountUuid, studyUids],
    queryFn: async ({ signal }) => {
      const outcomes = await runJobs(
        studyUids,
        { concurrency: EXISTS_CONCURRENCY, retries: 0, backoffMs: 0, signal, abortOnFailure: true },
        (studyUID, jobSignal) => api.get('study/exists', { studyUID, accountUuid }, { signal: jobSignal }),
      );
      // The first real failure, not the calls it stopped.
      const failure = outcomes.find((o) => !o.ok && !o.aborted) ?? outcomes.find((o) => !o.ok);
      if (failure && !failure.ok) throw failure.error;
      return new Set(studyUids.filter((_, i) => outcomes[i]?.ok && outcomes[i].value.exists === 1));
    },
    enabled: accountUuid !== undefined && studyUids.length > 0,
    staleTime: 0,
    gcTime: 0,
  });
}
