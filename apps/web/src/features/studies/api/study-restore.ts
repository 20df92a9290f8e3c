import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { countOutcome, type BundleAnswer } from '../lib/exam-actions';
import { refreshStudies } from './study-cache';

/** study/restore for each uuid through one bundle (from Deleted items). */
export async function restoreStudies(uuids: string[]) {
  const answers = await api.bundle<BundleAnswer>(uuids.map((uuid) => ({ URL: 'study/restore', uuid })));
  return countOutcome(uuids, answers);
}

export const useRestoreStudies = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: restoreStudies, onSettled: () => refreshStudies(queryClient) });
};
