import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AuditLogEntry } from '@imaging-inbox/contract';
import { api, type Params } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/save-blob';

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
      api.get(
        'audit/log',
        { ...auditLogParams(accountId, q), 'page.number': page, 'page.rows': rows },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });

/**
 * Downloads the filtered log as a CSV file. It is fetched with the sid in the Authorization header
 * (never in a link: a URL with the sid would stay in the browser's history and downloads list) and
 * saved from memory; the server builds the whole file (at most AUDIT_CSV_MAX_ROWS rows) before it
 * answers anyway.
 */
export async function downloadAuditLogCsv(accountId: string, q: AuditLogQuery): Promise<void> {
  const blob = await api.file('audit/log', { ...auditLogParams(accountId, q), format: 'csv' });
  saveBlob(blob, 'audit-log.csv');
}
