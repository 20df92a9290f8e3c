import type { AuditLogEntry } from '@imaging-inbox/contract';
import { formatPatientName } from '@imaging-inbox/contract';
import type { Caller } from '../../policies/index.js';
import { requireAdministration } from '../../policies/index.js';
import type { AccountLogRow, AuditLogFilter, AuditRepository } from '../../audit/audit.repository.js';

/** Rows one CSV export holds at most; a wider one is narrowed by time. */
export const AUDIT_CSV_MAX_ROWS = 100_000;
const CSV_BATCH = 1000;

/**
 * The audit log of an account for its privacy officers (audit_view): every event of the account
 * and of its members' sign-ins, filtered by user, study, action and time, a page at a time or as
 * a CSV file.
 */
export class AuditLogService {
  constructor(private readonly audit: AuditRepository) {}

  async page(
    caller: Caller,
    accountId: string,
    filter: AuditLogFilter,
    number: number,
    rows: number,
  ): Promise<{ events: AuditLogEntry[]; page: { number: number; rows: number; more: 0 | 1 } }> {
    requireAdministration(caller, accountId, 'audit', 'view');
    const found = await this.audit.accountLog(accountId, filter, rows + 1, (number - 1) * rows);
    const events = found.slice(0, rows).map(present);
    // Details name groups (by namespace id or uuid) and a send's copy by uuid: the page shows the
    // names of the account's own ones; another account's stay unnamed.
    const unique = (ids: string[]) => [...new Set(ids)];
    const [names, groups, studies] = await Promise.all([
      this.audit.namespaceNames(accountId, unique(events.flatMap(namespacesOf))),
      this.audit.groupNames(accountId, unique(events.flatMap(groupsOf))),
      this.audit.studyNames(accountId, unique(events.flatMap(copiesOf))),
    ]);
    return {
      events: events.map((e) => {
        const own = [
          ...namespacesOf(e).flatMap((id) => (names.has(id) ? [[id, names.get(id)!] as const] : [])),
          ...groupsOf(e).flatMap((id) => (groups.has(id) ? [[id, groups.get(id)!] as const] : [])),
        ];
        const copies = copiesOf(e).flatMap((id) =>
          studies.has(id) ? [[id, studies.get(id)!] as const] : [],
        );
        return {
          ...e,
          ...(own.length ? { group_names: Object.fromEntries(own) } : {}),
          ...(copies.length ? { study_names: Object.fromEntries(copies) } : {}),
        };
      }),
      page: { number, rows, more: found.length > rows ? 1 : 0 },
    };
  }

  /** The whole filtered log as CSV (newest first, at most AUDIT_CSV_MAX_ROWS rows). */
  async csv(caller: Caller, accountId: string, filter: AuditLogFilter): Promise<string> {
    requireAdministration(caller, accountId, 'audit', 'view');
    const lines = [CSV_COLUMNS.join(',')];
    for (let offset = 0; offset < AUDIT_CSV_MAX_ROWS; offset += CSV_BATCH) {
      const batch = await this.audit.accountLog(accountId, filter, CSV_BATCH, offset);
      for (const row of batch.map(present).map(csvRow)) {
        lines.push(CSV_COLUMNS.map((c) => csvCell(row[c])).join(','));
      }
      if (batch.length < CSV_BATCH) break;
    }
    return `${lines.join('\r\n')}\r\n`;
  }
}

/**
 * Namespace ids an event's details name: a study search's filters (`filter.phi_namespace.equals`,
 * `….in` as JSON), and a detail keyed `…namespace_id` (a retrieve's or a send's group).
 */
export function namespacesOf(entry: AuditLogEntry): string[] {
  const named = Object.entries(entry.detail ?? {})
    .filter(([key, value]) => key.endsWith('namespace_id') && typeof value === 'string')
    .map(([, value]) => value as string);
  const filters = entry.detail?.['filters'];
  if (!filters || typeof filters !== 'object') return named;
  return named.concat(filtersNamespaces(filters as Record<string, unknown>));
}

/** Group uuids an event's details name: a share's group target, a routing rule's group. */
export function groupsOf(entry: AuditLogEntry): string[] {
  const detail = entry.detail ?? {};
  const ids: unknown[] = [detail['group_id']];
  if (detail['target_type'] === 'group') ids.push(detail['target_id']);
  return ids.filter((id): id is string => typeof id === 'string');
}

/** Study uuids an event's details name as a copy it made (a send's, a routing rule's). */
export function copiesOf(entry: AuditLogEntry): string[] {
  const copy = entry.detail?.['copy_uuid'];
  return typeof copy === 'string' ? [copy] : [];
}

function filtersNamespaces(filters: Record<string, unknown>): string[] {
  return Object.entries(filters).flatMap(([key, value]) => {
    if (!/^filter\.(phi|storage)_namespace\./.test(key) || typeof value !== 'string') return [];
    if (!key.endsWith('.in')) return [value];
    try {
      const list: unknown = JSON.parse(value);
      return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : [];
    } catch {
      return [];
    }
  });
}

/** An event as the CSV writes it: the study it is about by uuid and patient, beside the rest. */
type CsvRow = AuditLogEntry & { study_uuid: string | null; patient_name: string | null };

const CSV_COLUMNS = [
  'when',
  'action',
  'outcome',
  'type',
  'object_id',
  'study_uuid',
  'patient_name',
  'user_id',
  'user_name',
  'user_email',
  'ip',
  'detail',
] as const satisfies readonly (keyof CsvRow)[];

function csvRow(entry: AuditLogEntry): CsvRow {
  return {
    ...entry,
    study_uuid: entry.study ? entry.object_id : null,
    patient_name: entry.study ? formatPatientName(entry.study.patient_name) : null,
  };
}

/**
 * One CSV cell, quoted. A value a spreadsheet would read as a formula (=, +, -, @, tab, CR) gets a
 * leading apostrophe, as names and details come from users and DICOM senders.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

function present(row: AccountLogRow): AuditLogEntry {
  return {
    id: Number(row.id),
    when: new Date(Number(row.at)).toISOString(),
    action: row.action,
    outcome: row.outcome,
    type: row.object_type,
    object_id: row.object_id,
    user_id: row.user_id,
    user_name: row.user_name,
    user_email: row.user_email,
    ip: row.ip,
    study:
      row.study_patient_name === null
        ? null
        : { patient_name: row.study_patient_name, description: row.study_description ?? '' },
    detail: row.detail ? (JSON.parse(row.detail) as Record<string, unknown>) : null,
  };
}
