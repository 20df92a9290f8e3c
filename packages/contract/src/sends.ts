import type { AnswerPage } from './api-params.js';
/**
 * Send exams (SPEC.md sections 3 "Send exam", 4 "Send", 6): study/share with account_id (a
 * connection), share_code or email, now or after DELAYED_SEND_MS; study/send/list and
 * study/send/cancel; namespace/share_code and connection/list; the recipient's public calls under
 * send/public/.
 */
export const SEND_METHODS = ['connections', 'emails', 'sharecode'] as const;
export type SendMethod = (typeof SEND_METHODS)[number];

/** The permission each send method needs on every selected study (besides study_share). */
export const SEND_METHOD_PERMISSION = {
  connections: 'study_share_account',
  emails: 'study_share_email',
  sharecode: 'study_share_share_code',
} as const satisfies Record<SendMethod, string>;

export type SendStatus = 'scheduled' | 'sent' | 'cancelled' | 'failed';

/** How long an e-mailed study link works, and the one-time code that verifies the address. */
export const SEND_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const SEND_CODE_TTL_MS = 10 * 60 * 1000;
export const SEND_CODE_LENGTH = 6;

export interface Connection {
  uuid: string;
  name: string;
  namespace_name: string;
  organization: string;
}

export interface ConnectionListAnswer {
  status: 'OK';
  connections: Connection[];
  page: AnswerPage;
}

/** GET namespace/share_code: whom a share code reaches. */
export interface ShareCodeAnswer {
  status: 'OK';
  namespace_id: string;
  name: string;
  organization: string;
  description: string | null;
  share_code: string | null;
}

/** study/share answered for a send: the send, its state and when it runs. */
export interface SendAnswer {
  status: 'OK';
  send_id: string;
  send_status: SendStatus;
  run_at: number;
}

export interface SentItem {
  uuid: string;
  method: 'account' | 'share_code' | 'email';
  target: string;
  message: string | null;
  status: SendStatus;
  run_at: number;
  created: number;
}

export interface SendListAnswer {
  status: 'OK';
  sends: SentItem[];
  page: AnswerPage;
}

/** send/public/info: what the e-mailed recipient sees before verifying (no patient data). */
export interface SendLinkInfoAnswer {
  status: 'OK';
  sender_name: string;
  organization: string;
  message: string | null;
  email_hint: string;
  expires: number;
}

export interface SendLinkVerifyAnswer {
  status: 'OK';
  grant: string;
  expires: number;
}

/** send/public/study: the study summary, once the address is verified. */
export interface SendLinkStudyAnswer {
  status: 'OK';
  study: {
    patient_name: string;
    patientid: string;
    patient_birth_date: string;
    patient_sex: string;
    study_date: string;
    study_description: string;
    accession_number: string;
    modality: string;
    image_count: number;
    series_count: number;
  };
  message: string | null;
  expires: number;
}
