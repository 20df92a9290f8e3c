import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

// The recipient of an e-mailed exam has no account: these calls never carry a session.
const noSid = { withSid: false } as const;

export const useSendLinkInfo = (token: string) =>
  useQuery({
    queryKey: ['send-link', 'info', token],
    queryFn: ({ signal }) => api.get('send/public/info', { token }, { ...noSid, signal }),
    retry: false,
  });

/** Mails a one-time code to the address the exam was sent to. */
export const useRequestSendCode = () =>
  useMutation({ mutationFn: (token: string) => api.call('send/public/code', { token }, noSid) });

export const useVerifySendCode = () =>
  useMutation({
    mutationFn: (input: { token: string; code: string }) => api.call('send/public/verify', input, noSid),
  });

export const useSendLinkStudy = (grant: string | null) =>
  useQuery({
    queryKey: ['send-link', 'study', grant],
    queryFn: ({ signal }) => api.get('send/public/study', { grant: grant ?? '' }, { ...noSid, signal }),
    enabled: grant !== null,
    retry: false,
  });

/** The ZIP of the exam; the grant is short-lived and tied to this verified visit. */
export const sendLinkDownloadUrl = (grant: string) =>
  api.url('send/public/download', { params: { grant }, ...noSid });
