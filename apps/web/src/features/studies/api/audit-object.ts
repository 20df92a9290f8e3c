import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { SHOWN_AUDIT_ACTIONS } from '../lib/history';

/** A study's history, newest first, limited to the action kinds the Summary shows. */
export const auditObjectQuery = (uuid: string) =>
  queryOptions({
    queryKey: ['audit', 'object', uuid],
    queryFn: ({ signal }) =>
      api.get(
        'audit/object',
        { uuid, reverse: 1, 'filter.action.in': JSON.stringify(SHOWN_AUDIT_ACTIONS), rows: 50 },
        { signal },
      ),
    retry: false,
  });
