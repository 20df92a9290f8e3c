import type { AnswerPage } from './api-params.js';
/**
 * Notification preferences (SPEC "Notification preferences"; calls user/event, user/event/set,
 * user/event/list). Flags are per user and per namespace (an account or one of its groups).
 */
export const EVENT_FLAGS = ['event_share', 'event_harvest', 'event_nominate'] as const;
export type EventFlagName = (typeof EVENT_FLAGS)[number];

/** One namespace's flags for one user, as the server answers them. */
export interface NotificationPreference {
  namespace_id: string;
  name: string;
  /** ACCOUNT, or the group type (CLOUD, GATEKEEPER, LIBRARY) */
  type: string;
  account_id: string;
  event_share: 0 | 1;
  event_harvest: 0 | 1;
  /** A study was nominated to this gatekeeper group. */
  event_nominate: 0 | 1;
  /** Whether the user may change these flags (user_modify_notifications in the namespace). */
  can_modify: 0 | 1;
}

/** user/event/list: the flags of every namespace the user belongs to. */
export interface NotificationPreferenceListAnswer {
  status: 'OK';
  events: NotificationPreference[];
  page: AnswerPage;
}

/** Labels of the toggles on the Notifications tab. */
export const EVENT_FLAG_LABELS: Record<EventFlagName, string> = {
  event_share: 'Shared with me',
  event_harvest: 'Harvested from gateway',
  event_nominate: 'Nominated to gatekeeper groups',
};
