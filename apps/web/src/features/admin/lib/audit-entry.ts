import type { AuditLogEntry } from '@imaging-inbox/contract';
import { t } from '../../../lib/i18n';

/** Names people read for the recorded action codes; an unknown code reads as its words. */
const ACTION_LABELS: Record<string, string> = {
  LOGIN: 'Sign-in',
  LOGOUT: 'Sign-out',
  PASSWORD_CHANGE: 'Password change',
  PASSWORD_RESET: 'Password reset',
  PASSWORD_RESET_REQUEST: 'Password reset request',
  PROFILE_EDIT: 'Profile edit',
  STUDY_VIEW: 'Study viewed',
  STUDY_SEARCH: 'Study search',
  STUDY_UPLOAD: 'Study uploaded',
  STUDY_DOWNLOAD: 'Study downloaded',
  STUDY_SEND: 'Study sent',
  ROUTE: 'Routing rule run',
  PUSH: 'Push to PACS',
  NOMINATE: 'Nomination',
  REJECT: 'Rejection',
  ATTACHMENT_VIEW: 'Attachment viewed',
  LINK_CREATE: 'Link created',
  LINK_REVOKE: 'Link revoked',
  ORDER_ADD: 'Order added',
  REPORT_ADD: 'Report added',
  PURGE: 'Purge',
  ADD: 'Added',
  EDIT: 'Edited',
  DELETE: 'Deleted',
  INVITE: 'Invitation',
};

/** The English label of an action code (to be passed through `t`). */
export function actionLabel(action: string): string {
  const known = ACTION_LABELS[action];
  if (known) return known;
  const words = action.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Whether the event records a refusal or failure (a failed sign-in, a refused call). */
export const isFailure = (entry: Pick<AuditLogEntry, 'outcome'>) => entry.outcome !== 'SUCCESS';

/** What a detail needs to read well: the user's day format, and the names of the groups it names. */
export interface DetailContext {
  /** A DICOM day (YYYYMMDD) in the user's date format. */
  day: (dicomDay: string) => string;
  groupNames?: Readonly<Record<string, string>>;
}

/** Words for the study/list filters a search records; a field not listed reads as its words. */
const FILTER_LABELS: Record<string, string> = {
  phi_namespace: 'Group',
  storage_namespace: 'Group',
  patient_name: 'Patient name',
  patientid: 'MRN',
  patient_birth_date: 'Date of birth',
  patient_sex: 'Sex',
  accession_number: 'Accession number',
  referring_physician: 'Referring physician',
  modality: 'Modality',
  star: 'Starred',
  thin: 'Thin',
  study_uid: 'Study UID',
  uuid: 'Study UUID',
  source_ae_title: 'Source title',
  destination_ae_title: 'Destination title',
  study_date: 'Study date',
  created: 'Uploaded date',
  tags: 'Tags',
  study_description: 'Study description',
  deleted: 'Deleted',
};

const YES_NO_FIELDS = new Set(['star', 'thin', 'deleted', 'must_approve', 'has_direct_shares']);

function fieldLabel(field: string): string {
  const label = FILTER_LABELS[field];
  if (label) return t(label);
  const words = field.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** One filter value as people read it: group names, days in the user's format, Yes/No, no % wildcards. */
function filterValue(field: string, value: string, ctx: DetailContext): string {
  if (field.endsWith('_namespace')) return ctx.groupNames?.[value] ?? t('Unknown group');
  if (YES_NO_FIELDS.has(field) && (value === '0' || value === '1')) return t(value === '1' ? 'Yes' : 'No');
  if (/^\d{8}$/.test(value) && (field === 'study_date' || field === 'patient_birth_date'))
    return ctx.day(value);
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return ctx.day(value.replaceAll('-', ''));
  return value.replace(/^%|%$/g, '');
}

function parseList(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** One recorded filter (`filter.<field>.<operator>` = value) in words. */
function filterPhrase(key: string, raw: unknown, ctx: DetailContext): string | null {
  const match = /^filter\.(\w+)\.(\w+)$/.exec(key);
  if (!match || raw === null || raw === undefined || raw === '') return null;
  const [, field, operator] = match as unknown as [string, string, string];
  const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
  const label = fieldLabel(field);
  if (operator === 'in') {
    const list = parseList(text);
    const values = Array.isArray(list) ? list.map((v) => filterValue(field, String(v), ctx)) : [text];
    return values.length === 1
      ? t('{{field}} is {{value}}', { field: label, value: values[0] })
      : t('{{field}} is one of {{value}}', { field: label, value: values.join(', ') });
  }
  const value = filterValue(field, text, ctx);
  switch (operator) {
    case 'equals':
      return t('{{field}} is {{value}}', { field: label, value });
    case 'like':
      return t('{{field}} contains {{value}}', { field: label, value });
    case 'ge':
      return t('{{field}} from {{value}}', { field: label, value });
    case 'le':
      return t('{{field}} until {{value}}', { field: label, value });
    default:
      return `${label}: ${value}`;
  }
}

/** A search's recorded filters in words, the group by its name; the time zone it used is left out. */
export function filtersText(filters: Record<string, unknown>, ctx: DetailContext): string {
  const phrases = Object.entries(filters)
    .filter(([key]) => key !== 'filter.timezone')
    .map(([key, value]) => filterPhrase(key, value, ctx))
    .filter((p): p is string => p !== null);
  return phrases.length ? t('Filters: {{list}}', { list: phrases.join(', ') }) : t('No filters');
}

/**
 * An event's details on one line: a search's filters in words, other `key: value` pairs as
 * recorded (nested values as compact JSON), long text cut so a row stays one line high; the full
 * text is in the CSV export.
 */
export function detailText(
  entry: Pick<AuditLogEntry, 'detail' | 'group_names'>,
  ctx: DetailContext,
  max = 160,
): string {
  const detail = entry.detail;
  if (!detail) return '';
  const withNames = { ...ctx, groupNames: entry.group_names ?? ctx.groupNames };
  const text = Object.entries(detail)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([key, value]) =>
      key === 'filters' && typeof value === 'object' && !Array.isArray(value)
        ? filtersText(value as Record<string, unknown>, withNames)
        : `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`,
    )
    .join(' · ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
