import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { refreshStudies } from './study-cache';

/**
 * An edit as SPEC.md section 7 wraps it: study/lock, study/set, then study/unlock even when the
 * set failed, so nobody else edits the study in between.
 */
export async function setStudyLocked(uuid: string, params: Record<string, string>): Promise<void> {
  await api.call('study/lock', { uuid });
  try {
    await api.call('study/set', { uuid, ...params });
  } finally {
    await api.call('study/unlock', { uuid }).catch(() => undefined);
  }
}

/** Saves an edit and refreshes the lists (the panel shows the refetched study) and its history. */
export const useStudySet = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uuid, params }: { uuid: string; params: Record<string, string> }) =>
      setStudyLocked(uuid, params),
    onSettled: () => refreshStudies(queryClient),
  });
};
