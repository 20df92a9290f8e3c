import type { AuditAction, AuditLogEntry } from '@imaging-inbox/contract';
import { t } from '../../../lib/i18n';
import { formatMegabytes, formatModalities, formatPatientName } from '../../../lib/format';

/** Names people read for the recorded action codes; an unknown code reads as its words. */
export const ACTION_LABELS: Record<AuditAction, string> = {
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
  CREATE: 'Created',
  UPDATE: 'Updated',
  IMAGE_ADD: 'Image received',
  THUMBNAIL_VIEW: 'Thumbnails viewed',
  VIEWER_TOKEN: 'Viewer opened',
  ATTACHMENT_LIST: 'Attachments listed',
  STUDY_EXISTS: 'Exam looked up',
  RETRIEVE: 'Retrieve started',
  RETRIEVE_END: 'Retrieve ended',
  PUSH_END: 'Push to PACS ended',
  ORDER_SEARCH: 'Order search',
  ORDER_UPDATE: 'Order edited',
  ORDER_CANCEL: 'Order cancelled',
  NOMINATE_CANCEL: 'Nomination cancelled',
  DESTINATION_SEARCH: 'Destination search',
  DESTINATION_SEARCH_END: 'Destination search ended',
  LINK_USE: 'Link used',
  SEND_LINK_CODE: 'Send link code requested',
  SEND_LINK_VERIFY: 'Send link code checked',
  HL7_RESULT: 'HL7 result received',
  DECLINE: 'Invitation declined',
  DICOM_FIND: 'DICOM query by a node',
  DICOM_MOVE: 'DICOM retrieve by a node (C-MOVE)',
  DICOM_GET: 'DICOM retrieve by a node (C-GET)',
  TWO_FACTOR_ENROL: 'Two-factor sign-in turned on',
  TWO_FACTOR_DISABLE: 'Two-factor sign-in turned off',
  TWO_FACTOR_RESET: 'Two-factor sign-in reset by an admin',
  TWO_FACTOR_CODE_FAILED: 'Wrong two-factor code',
  TWO_FACTOR_RECOVERY_CODE_USED: 'Recovery code used',
  ACCOUNT_SSO_SET: 'Single sign-on settings changed',
  SSO_LOGIN: 'Sign-in through single sign-on',
  SSO_LOGIN_REFUSED: 'Single sign-on refused',
  SSO_JIT_CREATE: 'User created at first single sign-on',
  SSO_ROLE_CHANGE: 'Roles changed by the identity provider',
  ACCOUNT_SET: 'Account settings changed',
  ENABLE: 'User enabled',
  DISABLE: 'User disabled',
  RESUME: 'User access resumed',
  SUSPEND: 'User access suspended',
  ACCEPT: 'Invitation accepted',
  MEMBER_SET: 'Group member added or changed',
  MEMBER_DELETE: 'Group member removed',
  LABEL_SET: 'Label saved',
  LABEL_DELETE: 'Label deleted',
  NAMESPACE_SETTINGS: 'Group settings changed',
  ORDER_COMPARE: 'Study compared with its order',
  COERCE: 'Study corrected from its order',
  PROCESS: 'Nomination processed',
  ECHO: 'Connection test (C-ECHO)',
  STUDY_ADD: 'Study record created for an upload',
  STUDY_SYNC: 'Upload completed',
  STUDY_TIMING: 'Viewer timing recorded',
  LOCK: 'Study locked',
  UNLOCK: 'Study unlocked',
  LOCK_BREAK: 'Study lock broken',
};

/** The English label of an action code (to be passed through `t`). */
export function actionLabel(action: string): string {
  const known = (ACTION_LABELS as Record<string, string | undefined>)[action];
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
  /** An ISO time in the user's date format and time zone (defaults to the ISO text). */
  timestamp?: (iso: string) => string;
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
  must_approve: 'Awaiting approval',
  has_direct_shares: 'Shared with me',
  study_push_status: 'PACS status',
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

/** DICOMweb (QIDO-RS) query keys a recorded query names, in words. */
const QUERY_LABELS: Record<string, string> = {
  StudyInstanceUID: 'Study UID',
  SeriesInstanceUID: 'Series UID',
  SOPInstanceUID: 'Instance UID',
  PatientName: 'Patient name',
  PatientID: 'MRN',
  PatientBirthDate: 'Date of birth',
  PatientSex: 'Sex',
  AccessionNumber: 'Accession number',
  StudyDate: 'Study date',
  ModalitiesInStudy: 'Modality',
  Modality: 'Modality',
  ReferringPhysicianName: 'Referring physician',
  StudyDescription: 'Study description',
};

/** A DICOMweb query (`{"PatientName": "DOE*"}`) as its filters in words; paging keys left out. */
export function queryText(query: Record<string, unknown>, ctx: DetailContext): string {
  const phrases = Object.entries(query)
    .filter(([key, value]) => QUERY_LABELS[key] && value !== '' && value !== null && value !== undefined)
    .map(([key, raw]) => {
      const field = t(QUERY_LABELS[key]!);
      const text = String(raw);
      const value = /Name$/.test(key)
        ? formatPatientName(text.replace(/\*/g, ''))
        : /Date$/.test(key) && /^\d{8}$/.test(text)
          ? ctx.day(text)
          : key === 'ModalitiesInStudy' || key === 'Modality'
            ? formatModalities(text)
            : text.replace(/\*/g, '');
      return text.includes('*')
        ? t('{{field}} contains {{value}}', { field, value })
        : t('{{field}} is {{value}}', { field, value });
    });
  return phrases.length ? t('Filters: {{list}}', { list: phrases.join(', ') }) : t('No filters');
}

/** Names people read for recorded detail keys; a key not listed reads as its words. */
const DETAIL_LABELS: Record<string, string> = {
  accession_number: 'Accession number',
  sop_instance_uid: 'Instance UID',
  study_uid: 'Study UID',
  destination_name: 'Destination',
  gatekeeper_name: 'Gatekeeper group',
  group_name: 'Group',
  route_name: 'Routing rule',
  reason: 'Reason',
  status: 'Status',
  message: 'Message',
  email: 'Email',
  login: 'Email',
  mobile_phone: 'Mobile phone',
  title: 'Title',
  filename: 'File name',
  size: 'Size',
  bytes: 'Size',
  version: 'Version',
  source: 'Source',
  method: 'Method',
  fields: 'Changed',
  changed: 'Changed',
  copy_uuid: 'Copy',
  target_namespace_id: 'To group',
  target_id: 'To group',
  group_id: 'Group',
  delayed: 'Delayed',
  run_at: 'Scheduled for',
  images: 'Images',
  instances: 'Images',
  series: 'Series',
  max_hits: 'Uses allowed',
  files_removed: 'Files removed',
  found: 'Found',
  exists: 'Found',
  report: 'Report',
  bundle: 'Format',
  calling_ae: 'Sending AE title',
  recovered: 'Recovered',
  priority: 'Priority',
};

/**
 * Detail keys that are not for people: how the call came (a protocol, a page of a list), ids of
 * records the page has no name for, and whole objects the CSV export keeps (a configuration, a
 * form's answers, a before/after pair: `changedFields` names what changed instead).
 */
const HIDDEN_DETAILS = new Set([
  'via',
  'page',
  'seed',
  'returned',
  'filters',
  'query',
  'expires',
  'id',
  'by',
  // The gatekeeper's name is recorded beside it.
  'gatekeeper_id',
  'again',
  'target_type',
  'target_account_id',
  'connection_id',
  'destination_id',
  'retry_of',
  'blob_key',
  'link_id',
  'foundkind',
  'control_id',
  'result_id',
  'mime',
  'disposition',
  'versions',
  'trigger',
  'action',
  'type',
  'config',
  'answers',
  'before',
  'after',
]);

/** Detail keys holding a time (ms since 1970), shown in the user's date format and zone. */
const TIME_DETAILS = new Set(['run_at']);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function words(key: string): string {
  const text = key.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Fields a profile or settings change records, in words. */
const FIELD_LABELS: Record<string, string> = {
  language: 'Language',
  first_name: 'First name',
  last_name: 'Last name',
  name: 'Name',
  email: 'Email',
  time_zone: 'Time zone',
  date_format: 'Date format',
  mobile_phone: 'Mobile phone',
  share_code: 'Share code',
  share_description: 'Share description',
  password: 'Password',
};

/** Recorded codes of a few details (where an exam came from, how it was sent…), in words. */
const VALUE_LABELS: Record<string, Record<string, string>> = {
  source: {
    seed: 'Demo data',
    manual: 'Entered by hand',
    upload: 'Uploaded in the browser',
    link: 'Request link',
    stow: 'DICOMweb upload',
    cstore: 'DICOM network',
    retrieve: 'Retrieved from a PACS',
    recovery: 'Recovered after a restart',
  },
  method: { account: 'To a connection', share_code: 'By share code', email: 'By email' },
  reason: { rate_limited: 'Too many attempts' },
};

/** The fields a before/after pair changed, by their names. */
function changedFields(before: unknown, after: unknown): string[] {
  if (!before || !after || typeof before !== 'object' || typeof after !== 'object') return [];
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  return [...new Set([...Object.keys(b), ...Object.keys(a)])].filter(
    (k) => JSON.stringify(b[k]) !== JSON.stringify(a[k]),
  );
}

type NamedContext = DetailContext & {
  groupNames?: Readonly<Record<string, string>>;
  studyNames?: Readonly<Record<string, { patient_name: string; description: string }>>;
};

/** A study the server named (a send's copy): its patient and description. */
function studyName(uuid: string, ctx: NamedContext): string | null {
  const study = ctx.studyNames?.[uuid];
  if (!study) return null;
  return [formatPatientName(study.patient_name), study.description].filter(Boolean).join(' · ') || null;
}

/** A recorded value as people read it: a group by its name, lists with commas, no raw JSON braces. */
function detailValue(key: string, value: unknown, ctx: NamedContext) {
  if (typeof value === 'string' && VALUE_LABELS[key]?.[value]) return t(VALUE_LABELS[key][value]);
  if (TIME_DETAILS.has(key) && typeof value === 'number') {
    const iso = new Date(value).toISOString();
    return ctx.timestamp ? ctx.timestamp(iso) : iso;
  }
  if (key === 'bytes' && typeof value === 'number') return formatMegabytes(value);
  if (key === 'bundle' && typeof value === 'string') return value.toUpperCase();
  if (typeof value === 'string') return ctx.groupNames?.[value] ?? studyName(value, ctx) ?? value;
  if (typeof value === 'boolean') return t(value ? 'Yes' : 'No');
  if (Array.isArray(value))
    return value
      .map((v) =>
        typeof v === 'string' ? (FIELD_LABELS[v] ? t(FIELD_LABELS[v]) : words(v)) : JSON.stringify(v),
      )
      .join(', ');
  return typeof value === 'number' || typeof value === 'bigint' ? String(value) : JSON.stringify(value);
}

/**
 * An event's details on one line, as a sentence where the kind of detail is known: a search's
 * filters (a study list's or a DICOMweb query's) in words with how many exams it found, an expiry or
 * a scheduled time in the user's date format and zone, groups and a send's copy by their names (a
 * group outside the account said to be so); identifiers nobody can read (uuids without a name, the
 * protocol a call came by) are left to the CSV export. Long text is cut so a row stays one line
 * high; the full record is in the CSV export.
 */
export function detailText(
  entry: Pick<AuditLogEntry, 'detail' | 'group_names' | 'study_names'>,
  ctx: DetailContext,
  max = 160,
): string {
  const detail = entry.detail;
  if (!detail) return '';
  const withNames: NamedContext = {
    ...ctx,
    groupNames: entry.group_names ?? ctx.groupNames,
    studyNames: entry.study_names,
  };
  const phrases: string[] = [];
  const filters = detail['filters'];
  if (filters && typeof filters === 'object' && !Array.isArray(filters))
    phrases.push(filtersText(filters as Record<string, unknown>, withNames));
  const query = detail['query'];
  if (query && typeof query === 'object' && !Array.isArray(query))
    phrases.push(queryText(query as Record<string, unknown>, withNames));
  if (typeof detail['returned'] === 'number')
    phrases.push(t('{{count}} results', { count: detail['returned'] }));
  if (typeof detail['expires'] === 'number') {
    const iso = new Date(detail['expires']).toISOString();
    phrases.push(t('valid until {{date}}', { date: ctx.timestamp ? ctx.timestamp(iso) : iso }));
  }
  for (const [key, value] of Object.entries(detail)) {
    if (HIDDEN_DETAILS.has(key) || value === null || value === undefined || value === '') continue;
    if (Array.isArray(value) && value.length === 0) continue;
    const label = DETAIL_LABELS[key];
    const name = label ? t(label) : key.endsWith('namespace_id') ? t('Group') : words(key);
    const target =
      key === 'target_namespace_id' || (key === 'target_id' && detail['target_type'] === 'group');
    if (target && typeof value === 'string' && !withNames.groupNames?.[value]) {
      phrases.push(t('{{label}}: {{value}}', { label: name, value: t("not one of this account's groups") }));
      continue;
    }
    // An id with no name to show for it (a copy in another account, a push's uuid) says nothing here.
    if (
      typeof value === 'string' &&
      UUID.test(value) &&
      !withNames.groupNames?.[value] &&
      !withNames.studyNames?.[value]
    )
      continue;
    phrases.push(t('{{label}}: {{value}}', { label: name, value: detailValue(key, value, withNames) }));
  }
  const changed = changedFields(detail['before'], detail['after']);
  if (changed.length)
    phrases.push(
      t('{{label}}: {{value}}', {
        label: t('Changed'),
        value: changed.map((f) => (FIELD_LABELS[f] ? t(FIELD_LABELS[f]) : words(f))).join(', '),
      }),
    );
  const text = phrases.join(' · ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
