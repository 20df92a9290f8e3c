import type { CustomField } from '@imaging-inbox/contract';

const option = (value: string) => ({ value, field_label: value });

/** Demo Hospital's custom fields as customfield/list answers them. */
export function demoCustomFields(): CustomField[] {
  const base = { account_id: 'account-1', object: 'study' as const };
  return [
    {
      ...base,
      uuid: 'cf-priority',
      name: 'Clinical priority',
      type: 'radio',
      required: 1,
      options: ['Routine', 'Urgent', 'Stat'].map(option),
      display_order: 1,
    },
    {
      ...base,
      uuid: 'cf-body',
      name: 'Body part',
      type: 'select',
      required: 0,
      options: ['Head', 'Chest'].map(option),
      display_order: 2,
    },
    {
      ...base,
      uuid: 'cf-ward',
      name: 'Referring ward',
      type: 'text',
      required: 0,
      options: [],
      display_order: 3,
    },
    {
      ...base,
      uuid: 'cf-reason',
      name: 'Referral reason',
      type: 'memo',
      required: 1,
      options: [],
      display_order: 4,
    },
  ];
}
