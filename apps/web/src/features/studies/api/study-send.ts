import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type BundleCall } from '../../../lib/api-client';
import type { BundleAnswer } from '../lib/exam-actions';
import type { SendBundleAnswer, SendRecipient } from '../lib/send';
import { refreshStudies } from './study-cache';

/** Connections of the account holding the study (the other accounts it can send to). */
export const connectionsQuery = (uuid: string, enabled: boolean) =>
  queryOptions({
    queryKey: ['connection', 'list', uuid],
    queryFn: ({ signal }) => api.get('connection/list', { uuid }, { signal }),
    select: (answer) => answer.connections,
    enabled,
  });

/** Whom a share code reaches: namespace/share_code. */
export const lookupShareCode = (code: string, signal?: AbortSignal) =>
  api.get('namespace/share_code', { share_code: code }, { signal });

export interface SendVars {
  uuids: string[];
  recipients: SendRecipient[];
  /** already trimmed; undefined is not sent */
  message?: string;
  delayed: boolean;
}

/** study/share of every selected study to every recipient (one send each), through one bundle. */
export async function sendStudies({ uuids, recipients, message, delayed }: SendVars) {
  const calls: BundleCall[] = [];
  for (const uuid of uuids) {
    for (const recipient of recipients) {
      calls.push({ URL: 'study/share', uuid, ...recipient, message, delay: delayed ? 1 : undefined });
    }
  }
  return api.bundle<SendBundleAnswer>(calls);
}

export const useSendStudies = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendStudies,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['audit', 'object'] });
      return refreshStudies(queryClient);
    },
  });
};

/** Cancels delayed sends that have not run yet; answers how many were cancelled. */
export async function cancelSends(sendIds: string[]): Promise<number> {
  const answers = await api.bundle<BundleAnswer>(sendIds.map((uuid) => ({ URL: 'study/send/cancel', uuid })));
  return answers.filter((a) => a.status === 'OK').length;
}

export const useCancelSends = () => useMutation({ mutationFn: cancelSends });

export const cancelOne = (uuid: string) => api.call('study/send/cancel', { uuid });
