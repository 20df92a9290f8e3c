import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The account's study custom fields in display order (Exchange tab). */
export const studyCustomFieldsQuery = (accountId: string) =>
  queryOptions({
    queryKey: ['customfield', 'list', accountId, 'study'],
    queryFn: ({ signal }) =>
      api.get('customfield/list', { account_id: accountId, 'filter.object.equals': 'study' }, { signal }),
    select: (answer) => answer.customfields,
    staleTime: 5 * 60 * 1000,
  });
