import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type BundleCall } from '../../../lib/api-client';
import { countOutcome, type BundleAnswer } from '../lib/exam-actions';
import { refreshStudies } from './study-cache';

export interface ShareVars {
  uuids: string[];
  userIds: string[];
  groupIds: string[];
  /** already trimmed; undefined is not sent */
  message?: string;
}

/** study/share of every selected study to every recipient, through one bundle. */
export async function shareStudies({ uuids, userIds, groupIds, message }: ShareVars) {
  const calls: BundleCall[] = [];
  const keys: string[] = [];
  for (const uuid of uuids) {
    for (const user_id of userIds) {
      calls.push({ URL: 'study/share', uuid, user_id, message });
      keys.push(uuid);
    }
    for (const group_id of groupIds) {
      calls.push({ URL: 'study/share', uuid, group_id, message });
      keys.push(uuid);
    }
  }
  // A JSON body keeps undefined out, so an empty message is never sent.
  return countOutcome(keys, await api.bundle<BundleAnswer>(calls));
}

export const useShareStudies = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: shareStudies,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['study', 'share', 'list'] });
      void queryClient.invalidateQueries({ queryKey: ['audit', 'object'] });
      return refreshStudies(queryClient);
    },
  });
};
