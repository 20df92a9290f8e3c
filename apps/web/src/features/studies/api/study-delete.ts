import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { countOutcome, type BundleAnswer } from '../lib/exam-actions';
import { refreshStudies } from './study-cache';

/** study/delete for each uuid through one bundle; answers who succeeded and who failed. */
export async function deleteStudies(uuids: string[]) {
  const answers = await api.bundle<BundleAnswer>(uuids.map((uuid) => ({ URL: 'study/delete', uuid })));
  return countOutcome(uuids, answers);
}

export const useDeleteStudies = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteStudies, onSettled: () => refreshStudies(queryClient) });
};
