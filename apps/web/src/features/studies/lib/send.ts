import { MESSAGES, emailSchema, type SendAnswer, type Study } from '@imaging-inbox/contract';
import { allGrant } from './exam-tabs';
import type { BundleAnswer } from './exam-actions';

/** One answer of the study/share bundle: the bundle's outcome, with the send's id and time when delayed. */
export type SendBundleAnswer = BundleAnswer & Partial<Pick<SendAnswer, 'send_id' | 'run_at'>>;

/** One recipient of a send, as study/share takes it. */
export type SendRecipient = { account_id: string } | { email: string } | { share_code: string };

/**
 * The send methods the whole selection allows (SPEC section 6): connections need
 * study_share_account, e-mail study_share_email, share code study_share_share_code, each on top of
 * study_share, on every selected study.
 */
export function sendMethods(studies: Study[]) {
  const share = allGrant(studies, 'study_share');
  return {
    connections: share && allGrant(studies, 'study_share_account'),
    emails: share && allGrant(studies, 'study_share_email'),
    sharecode: share && allGrant(studies, 'study_share_share_code'),
  };
}

/** E-mail addresses typed in one box, split on commas, semicolons and spaces. */
export function parseEmails(raw: string): { valid: string[]; invalid: string[] } {
  const parts = raw
    .split(/[\s,;]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const part of parts) (emailSchema.safeParse(part).success ? valid : invalid).push(part);
  return { valid: [...new Set(valid.map((e) => e.toLowerCase()))], invalid };
}

/** Send is enabled only with a recipient, e-mail or share code chosen, nothing invalid, and idle. */
export function canSubmitSend(recipients: SendRecipient[], invalidEmails: number, busy: boolean): boolean {
  return !busy && recipients.length > 0 && invalidEmails === 0;
}

export interface SendResult {
  severity: 'success' | 'error';
  text: string;
  detail?: string;
}

const FAILURE_DETAIL: Record<string, string> = {
  NOT_PERMITTED: 'You are not allowed to send one of these exams this way.',
  NOT_FOUND: 'One of the exams or recipients was not found.',
  NAMESPACE_NOT_FOUND: MESSAGES.shareCodeUnknown,
  LOCKED: 'One of the exams is locked by someone else.',
  INVALID_FIELD: 'One of the recipients is not valid.',
};

/**
 * The result banner (SPEC sections 4 "Send" and 8): all OK gives the single or multiple success
 * text (or the delayed wording); any failure gives 'Failed to send exam(s)' with a sub-message.
 */
export function sendResult(studyCount: number, answers: SendBundleAnswer[], delayed: boolean): SendResult {
  const failed = answers.filter((a) => a.status !== 'OK');
  if (failed.length > 0) {
    const code = failed[0]?.error_type ?? '';
    const detail = FAILURE_DETAIL[code] ?? MESSAGES.studySendFailed;
    const partial =
      failed.length < answers.length
        ? ` ${answers.length - failed.length} of ${answers.length} sends went through.`
        : '';
    return { severity: 'error', text: MESSAGES.sendFailed, detail: `${detail}${partial}` };
  }
  const many = studyCount > 1;
  if (delayed)
    return { severity: 'success', text: many ? MESSAGES.sendScheduledMany : MESSAGES.sendScheduled };
  return { severity: 'success', text: many ? MESSAGES.sendDoneMany : MESSAGES.sendDone };
}
