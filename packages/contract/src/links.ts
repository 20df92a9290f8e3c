import type { AnswerPage } from './api-params.js';
/**
 * Request-study links (SPEC.md sections 3 "Link request", "Pending request" and 7 "Links"): the
 * authed calls link/add, link/list, link/delete and the public upload calls under link/public/.
 */
export const LINK_ACTIONS = ['STUDY_UPLOAD'] as const;
export type LinkAction = (typeof LINK_ACTIONS)[number];

/** Pending-requests sort options as the spec names them, mapped to `sort_by` values. */
export const LINK_SORT_OPTIONS = [
  { label: 'Newest case', value: 'created-desc' },
  { label: 'Oldest case', value: 'created-asc' },
  { label: 'Sending institution (A to Z)', value: 'email-asc' },
  { label: 'Sending institution (Z to A)', value: 'email-desc' },
] as const;
export type LinkSort = (typeof LINK_SORT_OPTIONS)[number]['value'];
export const DEFAULT_LINK_SORT: LinkSort = 'created-desc';

export interface LinkAddAnswer {
  status: 'OK';
  uuid: string;
  /** The only time the link's secret URL is ever answered; it is stored hashed. */
  url: string;
}

export interface PendingRequest {
  uuid: string;
  message: string | null;
  description: string | null;
  created: number;
  minutes_alive: number;
  email: string;
  /** Always null: the token is stored hashed and never re-exposed. */
  url: null;
  namespace_id: string;
  namespace_name: string;
  hits: number;
  max_hits: number;
  /** Whom the request is for (no text message is sent: the requester reaches them). */
  mobile_phone: string | null;
  /** Goes with what the link uploads, as each study's share message. */
  share_description: string | null;
}

export interface LinkListAnswer {
  status: 'OK';
  links: PendingRequest[];
  page: AnswerPage;
}

/** GET link/public/info: what the outside party sees before uploading. */
export interface LinkInfoAnswer {
  status: 'OK';
  namespace_name: string;
  requester_name: string;
  description: string | null;
  needs_password: boolean;
  expires: number;
  /**
   * Whether the group takes PDF, image and video files (its account's enable_dicom_wrapping): they
   * go through POST link/public/wrap with the patient and exam form.
   */
  accepts_documents: boolean;
}

/** POST link/public/unlock: a short-lived upload grant; each grant counts one hit of the link. */
export interface LinkUnlockAnswer {
  status: 'OK';
  grant: string;
  expires: number;
}

/** Whole days until a pending request expires, from created + minutes_alive. */
export function linkExpiryDays(created: number, minutesAlive: number, now: number): number {
  return Math.max(0, Math.ceil((created + minutesAlive * 60_000 - now) / 86_400_000));
}
