import { useMutation, useQueryClient } from '@tanstack/react-query';
import { refreshStudies } from './study-cache';
import { setStudyLocked } from './study-set';

/** Edit MRN (SPEC.md section 4): study/lock, study/set patientid, then study/unlock even on failure. */
export function editMrn(uuid: string, mrn: string): Promise<void> {
  return setStudyLocked(uuid, { patientid: mrn.trim() });
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
