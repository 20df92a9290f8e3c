import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AuditLogEntry } from '@imaging-inbox/contract';
import { API_BASE, apiGet, type Params } from '../../../lib/api-client';
import { getSid } from '../../../lib/storage';

export interface AuditLogQuery {
  userId: string | null;
  studyId: string | null;
  actions: string[];
  /** ms since the epoch, inclusive */
  from: number | null;
  to: number | null;
}

export interface AuditLogPage {
  events: AuditLogEntry[];
  page: { number: number; rows: number; more: 0 | 1 };
}

/** audit/log's filter parameters for a query (absent filters are left out). */
export function auditLogParams(accountId: string, q: AuditLogQuery): Params {
  return {
    account_id: accountId,
    'filter.user_id': q.userId ?? undefined,
    'filter.study_id': q.studyId ?? undefined,
    'filter.action': q.actions.length ? q.actions.join(',') : undefined,
    'filter.from': q.from ?? undefined,
    'filter.to': q.to ?? undefined,
  };
}

/** A page of the account's audit log, newest first. */
export const useAuditLog = (
  accountId: string,
  q: AuditLogQuery,
  page: number,
  rows: number,
  enabled = true,
) =>
  useQuery({
    enabled,
    queryKey: ['audit-log', accountId, q, page, rows],
    queryFn: ({ signal }) =>
      apiGet<AuditLogPage>(
        'audit/log',
        { ...auditLogParams(accountId, q), 'page.number': page, 'page.rows': rows },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });

/**
 * The filtered log as a CSV file: a plain link the browser downloads itself, so a long log is
 * streamed to disk rather than held in the page. The session id rides in the query as on every GET.
 */
export function auditLogCsvUrl(accountId: string, q: AuditLogQuery): string {
  const params = new URLSearchParams();
  const sid = getSid();
  if (sid) params.set('sid', sid);
  for (const [key, value] of Object.entries({ ...auditLogParams(accountId, q), format: 'csv' })) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  return `${API_BASE}/audit/log?${params.toString()}`;
}
