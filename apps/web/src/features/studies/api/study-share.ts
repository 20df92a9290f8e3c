import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type BundleCall } from '../../../lib/api-client';
import { countOutcome, type ActionOutcome, type BundleAnswer } from '../lib/exam-actions';
import type { RefusedFiles } from '../lib/download';
import { refreshStudies } from './study-cache';

export interface ShareVars {
  uuids: string[];
  userIds: string[];
  groupIds: string[];
  /** already trimmed; undefined is not sent */
  message?: string;
}

/** What a share into a de-identifying group answers (docs/privacy.md): its copy and what was left out. */
interface ShareAnswer extends BundleAnswer {
  deidentified?: { instances: number; refused_burned_in: number; refused_unreadable: number };
}

export interface ShareOutcome extends ActionOutcome {
  /** files left out of the de-identified copies, summed over the shares that succeeded */
  refused: RefusedFiles;
  /** shares refused because every file might show burned-in text (NOT_PERMITTED burned_in_text) */
  burnedIn: number;
}

/** study/share of every selected study to every recipient, through one bundle. */
export async function shareStudies({ uuids, userIds, groupIds, message }: ShareVars): Promise<ShareOutcome> {
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
  const answers = await api.bundle<ShareAnswer>(calls);
  const outcome = countOutcome(keys, answers);
  const refused: RefusedFiles = { burnedIn: 0, unreadable: 0 };
  for (const answer of answers) {
    if (answer.status !== 'OK' || !answer.deidentified) continue;
    refused.burnedIn += answer.deidentified.refused_burned_in;
    refused.unreadable += answer.deidentified.refused_unreadable;
  }
  const burnedIn = outcome.failed.filter(
    (f) => f.code === 'NOT_PERMITTED' && f.subtype === 'burned_in_text',
  ).length;
  return { ...outcome, refused, burnedIn };
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
