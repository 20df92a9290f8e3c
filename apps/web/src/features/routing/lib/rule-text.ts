import type { RouteAction, RouteCondition, RouteEvent } from '@imaging-inbox/contract';

/** Labels of the rule vocabulary, in product words (translated where shown). */
export const EVENT_LABELS: Record<RouteEvent, string> = {
  upload: 'On upload',
  harvest: 'On harvest from a sender',
  share: 'On share',
  manual: 'On manual route',
};

export const FIELD_LABELS: Record<string, string> = {
  modality: 'Modality',
  source_ae: 'Source AE',
  called_ae: 'Called AE',
  referring_physician: 'Referring physician',
  study_description: 'Study description',
  patient_name: 'Patient name',
};

export const OPERATOR_LABELS: Record<RouteCondition['op'], string> = {
  equals: 'equals',
  contains: 'contains',
  regex: 'matches regex',
};

export const ACTION_LABELS: Record<RouteAction['type'], string> = {
  share_group: 'Share to a group',
  push: 'Send to a destination',
  webhook: 'Call a webhook',
  share_code: 'Send by share code',
  connection: 'Send to a connection',
};

/** The field of an action that names its target. */
export function actionTarget(action: RouteAction): string {
  switch (action.type) {
    case 'share_group':
      return action.group_id;
    case 'push':
      return action.destination_id;
    case 'webhook':
      return action.webhook_id;
    case 'share_code':
      return action.share_code;
    case 'connection':
      return action.connection_id;
  }
}

/** An action of `type` naming `target` (a share to a group de-identified by `profile`, if given). */
export function actionOf(type: RouteAction['type'], target: string, profile?: string): RouteAction {
  switch (type) {
    case 'share_group':
      return profile ? { type, group_id: target, anonymization_id: profile } : { type, group_id: target };
    case 'push':
      return { type, destination_id: target };
    case 'webhook':
      return { type, webhook_id: target };
    case 'share_code':
      return { type, share_code: target };
    case 'connection':
      return { type, connection_id: target };
  }
}

/** A condition's field in words: a custom field shows its name. */
export function fieldLabel(field: string): string {
  return field.startsWith('custom:') ? field.slice('custom:'.length) : (FIELD_LABELS[field] ?? field);
}
