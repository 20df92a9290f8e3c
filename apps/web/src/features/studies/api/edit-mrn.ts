import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { refreshStudies } from './study-cache';

/** Edit MRN (SPEC.md section 4): study/lock, study/set patientid, then study/unlock even on failure. */
export async function editMrn(uuid: string, mrn: string): Promise<void> {
  await apiPost('study/lock', { uuid });
  try {
    await apiPost('study/set', { uuid, patientid: mrn.trim() });
  } finally {
    await apiPost('study/unlock', { uuid }).catch(() => undefined);
  }
}

export const useEditMrn = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uuid, mrn }: { uuid: string; mrn: string }) => editMrn(uuid, mrn),
    onSettled: (_data, _error, { uuid }) => {
      void queryClient.invalidateQueries({ queryKey: ['audit', 'object', uuid] });
      return refreshStudies(queryClient);
    },
  });
};
