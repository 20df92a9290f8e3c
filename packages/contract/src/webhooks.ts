/**
 * Webhooks of an account: on the events it names, a study event is POSTed (or PUT) to its URL as
 * JSON, signed with the webhook's secret, retried with back-off, each delivery logged.
 */

export const WEBHOOK_EVENTS = [
  'study_uploaded',
  'study_harvested',
  'study_shared',
  'study_pushed_success',
  'study_pushed_failure',
  'study_nominated',
  'study_rejected',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** What a delivery carries: an event a webhook names, or `study_routed` from a routing rule's webhook action. */
export type WebhookDeliveryEvent = WebhookEvent | 'study_routed';

export const WEBHOOK_METHODS = ['POST', 'PUT'] as const;
export type WebhookMethod = (typeof WEBHOOK_METHODS)[number];

export const WEBHOOK_NAME_MAX_LENGTH = 100;
export const WEBHOOK_URL_MAX_LENGTH = 2000;

/**
 * The signature header: `t=<unix ms>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the secret>`. The
 * receiver recomputes it and refuses an old `t`, so a captured delivery cannot be replayed later.
 */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Imaging-Inbox-Signature';
export const WEBHOOK_EVENT_HEADER = 'X-Imaging-Inbox-Event';

export interface Webhook {
  uuid: string;
  account_id: string;
  name: string;
  url: string;
  method: WebhookMethod;
  events: WebhookEvent[];
  /** The signing secret: only account admins read webhooks, and they need it to check signatures. */
  secret: string;
  disabled: 0 | 1;
  created: number;
  updated: number;
}

/** pending: waiting for its (next) attempt; delivered: a 2xx answer; failed: out of attempts or refused. */
export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookDelivery {
  uuid: string;
  webhook_id: string;
  event: WebhookDeliveryEvent;
  study_uuid: string | null;
  status: WebhookDeliveryStatus;
  attempts: number;
  /** HTTP status of the last attempt, null when it got no answer. */
  last_status_code: number | null;
  last_error: string | null;
  created: number;
  updated: number;
}

/** The JSON body of a delivery. */
export interface WebhookPayload {
  id: string;
  event: WebhookDeliveryEvent;
  at: string;
  account_id: string;
  study: {
    uuid: string;
    study_uid: string;
    namespace_id: string;
    accession_number: string;
    modality: string;
    study_description: string;
  } | null;
  detail: Record<string, unknown>;
}
