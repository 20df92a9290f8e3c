import { t } from '../../../lib/i18n';

/** Audit actions the exam history shows (SPEC.md section 4). */
export const SHOWN_AUDIT_ACTIONS = [
  'CREATE',
  'EDIT',
  'STUDY_VIEW',
  'STUDY_DOWNLOAD',
  'DELETE',
  'RETRIEVE_END',
  'REPORT_ADD',
  'ROUTE',
] as const;

export type HistoryKind =
  | 'upload'
  | 'view'
  | 'edit'
  | 'download'
  | 'shared'
  | 'invite'
  | 'remove share'
  | 'retrieved'
  | 'retrieve incomplete'
  | 'report added'
  | 'routed'
  | 'routing failed';

/**
 * The history kind of an audit event: CREATE of a study is an upload, of an invite an invite, of a
 * share 'shared'; DELETE of a share is 'remove share'; the end of a retrieve from a PACS that
 * filled the study is 'retrieved', or 'retrieve incomplete' when it failed part-way; a report added
 * from the Reports tab is 'report added'; a routing rule's run is 'routed' or 'routing failed'. Anything else
 * is not shown (null).
 */
export function historyKind(
  action: string,
  type: string | null | undefined,
  outcome?: string,
): HistoryKind | null {
  const objectType = (type ?? 'study').toLowerCase();
  switch (action) {
    case 'CREATE':
      if (objectType === 'invite') return 'invite';
      if (objectType === 'share') return 'shared';
      return objectType === 'study' ? 'upload' : null;
    case 'EDIT':
      return 'edit';
    case 'STUDY_VIEW':
      return 'view';
    case 'STUDY_DOWNLOAD':
      return 'download';
    case 'DELETE':
      return objectType === 'share' ? 'remove share' : null;
    case 'RETRIEVE_END':
      if (objectType !== 'study') return null;
      return outcome === 'FAILURE' ? 'retrieve incomplete' : 'retrieved';
    case 'REPORT_ADD':
      return objectType === 'study' ? 'report added' : null;
    case 'ROUTE':
      return outcome === 'FAILURE' ? 'routing failed' : 'routed';
    default:
      return null;
  }
}

/** How the exam history names the fields an edit changed. */
const FIELD_LABELS: Record<string, string> = {
  patientid: 'MRN',
  patient_name: 'Patient name',
  patient_sex: 'Sex',
  patient_birth_date: 'Date of birth',
  accession_number: 'Accession number',
  study_description: 'Description',
  referring_physician: 'Referring physician',
  study_date: 'Study date',
  study_time: 'Study time',
};

type Detail = Record<string, unknown> | null | undefined;

const text = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' ? String(value) || '—' : '—';

/**
 * One line saying what an event did, from its audit detail: `MRN: A → B` for an edit, the bundle
 * and image count for a download, the recipient for a share. Empty when the detail says nothing.
 */
export function historyDetail(kind: HistoryKind, detail: unknown): string {
  const d = (typeof detail === 'object' ? detail : null) as Detail;
  if (!d) return '';
  switch (kind) {
    case 'edit': {
      // Tags are edits too; their detail names the one tag added or removed.
      if (typeof d['tag_added'] === 'string') return t('Tag added: {{tag}}', { tag: d['tag_added'] });
      if (typeof d['tag_removed'] === 'string') return t('Tag removed: {{tag}}', { tag: d['tag_removed'] });
      const before = (d['before'] ?? {}) as Record<string, unknown>;
      const after = (d['after'] ?? {}) as Record<string, unknown>;
      return Object.keys(after)
        .map((field) => {
          const known = FIELD_LABELS[field];
          const label = known ? t(known) : field.replace(/^customfield-/, '');
          return `${label}: ${text(before[field])} → ${text(after[field])}`;
        })
        .join('; ');
    }
    case 'download': {
      const bundle = d['bundle'] === 'iso' ? 'ISO' : 'ZIP';
      const images =
        typeof d['instances'] === 'number' ? ` · ${t('{{count}} images', { count: d['instances'] })}` : '';
      return `${bundle}${images}`;
    }
    case 'shared':
    case 'remove share': {
      const name = d['target_name'] ?? d['target_type'];
      if (!name) return '';
      return kind === 'shared'
        ? t('with {{name}}', { name: text(name) })
        : t('from {{name}}', { name: text(name) });
    }
    case 'retrieved':
    case 'retrieve incomplete': {
      const from = d['destination_name'] ? t('from {{name}}', { name: text(d['destination_name']) }) : '';
      const why = kind === 'retrieve incomplete' && d['reason'] ? text(d['reason']) : '';
      return [from, why].filter(Boolean).join(': ');
    }
    case 'report added': {
      // e.g. 'Emergency read (SR, Final)'
      const what = [d['kind'], d['status']].filter((v) => typeof v === 'string' && v).join(', ');
      return [d['title'] ? text(d['title']) : '', what ? `(${what})` : ''].filter(Boolean).join(' ');
    }
    case 'routed':
    case 'routing failed': {
      // e.g. 'Gateway CT to Cardiology: share to a group' and, when it failed, why
      const words = ROUTE_ACTION_WORDS[String(d['action'])];
      const what = words ? t(words) : '';
      const rule = d['route_name'] ? `${text(d['route_name'])}${what ? `: ${what}` : ''}` : what;
      const why = kind === 'routing failed' && d['error'] ? text(d['error']) : '';
      return [rule, why].filter(Boolean).join(' · ');
    }
    default:
      return '';
  }
}

/** How the history names a routing rule's action. */
const ROUTE_ACTION_WORDS: Record<string, string> = {
  share_group: 'shared to a group',
  push: 'sent to a destination',
  webhook: 'webhook called',
  share_code: 'sent by share code',
  connection: 'sent to a connection',
};
