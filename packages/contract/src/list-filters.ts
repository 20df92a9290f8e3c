import { MAX_FILTER_LENGTH } from './limits.js';
import { parseStringList } from './api-params.js';

/**
 * Ambra's filter grammar on every api/v3 list: `filter.<field>.<condition>=<value>`, e.g.
 * `filter.name.like=%card%` or `filter.uuid.in=["a","b"]`. `filter.<field>` alone means `equals`
 * (the short form some lists always took). One parser for every list, bounded so no request can
 * make a list expensive: at most MAX_LIST_FILTERS filters, each value at most MAX_FILTER_LENGTH
 * characters, an `in` list at most MAX_IN_VALUES values, and `like` patterns are SQL LIKE patterns
 * (`%` any run, `_` one character), never a regular expression.
 */
export const FILTER_CONDITIONS = ['equals', 'like', 'in', 'ge', 'le', 'gt', 'lt'] as const;
export type FilterCondition = (typeof FILTER_CONDITIONS)[number];

export const MAX_LIST_FILTERS = 20;
export const MAX_IN_VALUES = 100;

/** One parsed filter: `values` holds one value, or the members of an `in` list. */
export interface ListFilter {
  key: string;
  field: string;
  condition: FilterCondition;
  values: string[];
}

/** The fields a list filters on, each with the conditions it takes. */
export type ListFilterFields = Readonly<Record<string, readonly FilterCondition[]>>;

/** A list's filters: its fields, and short forms kept as aliases of the full keys. */
export interface ListFilterSpec {
  fields: ListFilterFields;
  aliases?: Readonly<Record<string, string>>;
}

/** Every condition: lists read whole compare any field of their rows (listed below) in memory. */
const ANY: readonly FilterCondition[] = FILTER_CONDITIONS;
const anyOf = (...fields: string[]): ListFilterFields => Object.fromEntries(fields.map((f) => [f, ANY]));

/** An account's audit log filters in its database query: by user, study, object, action and time. */
const AUDIT_LOG_FIELDS: ListFilterFields = {
  user_id: ['equals', 'in'],
  study_id: ['equals'],
  object_id: ['equals'],
  action: ['equals', 'in'],
  at: ['ge', 'le', 'gt', 'lt'],
};

/**
 * The fields of every list's rows that its filters name (the answer's own field names, as Ambra
 * filters). A list missing here takes no filter: any `filter.*` is refused as an unknown field.
 * study/list and study/count keep their own field table (STUDY_FILTER_FIELDS, custom fields).
 */
export const LIST_FILTERS: Readonly<Record<string, ListFilterSpec>> = {
  'anonymization/list': {
    fields: anyOf('uuid', 'name', 'keep_burned_in', 'keep_attachments', 'created', 'updated'),
  },
  'account/list': { fields: anyOf('uuid', 'name', 'namespace_id', 'vanity') },
  'account/group/list': { fields: anyOf('uuid', 'name', 'namespace_id', 'type', 'share_code') },
  'account/invitation/list': { fields: anyOf('uuid', 'account_id', 'account_name', 'email') },
  'account/user/list': {
    fields: anyOf(
      'uuid',
      'name',
      'first_name',
      'last_name',
      'email',
      'role',
      'enabled',
      'invited',
      'suspended',
      'last_login',
    ),
  },
  'connection/list': { fields: anyOf('uuid', 'name', 'namespace_name', 'organization') },
  'customfield/list': {
    fields: { ...anyOf('name', 'type', 'required', 'display_order'), uuid: ANY, object: ['equals'] },
  },
  'destination/list': {
    fields: anyOf(
      'uuid',
      'name',
      'aetitle',
      'address',
      'port',
      'can_search',
      'can_search_mwl',
      'can_push',
      'calling_aet',
    ),
  },
  'dicom/node/list': {
    fields: anyOf(
      'uuid',
      'name',
      'ae_title',
      'host',
      'group_id',
      'group_name',
      'namespace_id',
      'destination_id',
    ),
  },
  'group/list': { fields: anyOf('uuid', 'name', 'namespace_id', 'type', 'account_id') },
  'group/user/list': { fields: anyOf('uuid', 'name', 'email') },
  'hl7/sender/list': { fields: anyOf('uuid', 'name', 'host', 'facility', 'application') },
  'label/list': { fields: anyOf('uuid', 'name', 'label', 'namespace_id') },
  'link/list': {
    fields: anyOf(
      'uuid',
      'email',
      'message',
      'namespace_id',
      'namespace_name',
      'hits',
      'max_hits',
      'created',
      'mobile_phone',
    ),
  },
  'order/list': {
    fields: anyOf(
      'uuid',
      'patient_name',
      'patientid',
      'accession_number',
      'patient_birth_date',
      'patient_sex',
      'modality',
      'procedure',
      'referring_physician',
      'status',
      'scheduled',
    ),
  },
  'role/list': { fields: anyOf('uuid', 'name', 'holders') },
  'route/list': { fields: anyOf('uuid', 'name', 'sequence', 'match', 'disabled') },
  'study/attachment/list': { fields: anyOf('id', 'filename', 'mime', 'size', 'user_name', 'stored') },
  'study/push/list': { fields: anyOf('uuid', 'destination_id', 'destination_name', 'status', 'created') },
  'study/report/list': { fields: anyOf('uuid', 'type', 'status', 'created') },
  'study/send/list': { fields: anyOf('uuid', 'method', 'target', 'status', 'run_at', 'created') },
  'study/share/list': { fields: anyOf('uuid', 'type', 'name', 'namespace_id') },
  'tag/list': { fields: { tag: ['equals', 'like'] } },
  'user/event/list': { fields: anyOf('namespace_id', 'name', 'type', 'account_id') },
  'user/namespace/list': { fields: anyOf('namespace_id', 'name', 'type', 'account_id') },
  'webhook/list': { fields: anyOf('uuid', 'name', 'url', 'method', 'disabled') },
  'webhook/delivery/list': { fields: anyOf('uuid', 'event', 'study_uuid', 'status', 'attempts', 'created') },
  'audit/log': {
    fields: AUDIT_LOG_FIELDS,
    // The short forms audit/log always took.
    aliases: {
      'filter.user_id': 'filter.user_id.equals',
      'filter.study_id': 'filter.study_id.equals',
      'filter.action': 'filter.action.in',
      'filter.from': 'filter.at.ge',
      'filter.to': 'filter.at.le',
    },
  },
  'audit/object': { fields: { action: ['equals', 'in'] } },
  'audit/account': { fields: AUDIT_LOG_FIELDS },
  'audit/user': { fields: AUDIT_LOG_FIELDS },
  'audit/failedlogins': { fields: AUDIT_LOG_FIELDS },
};

/** `filter.<field>.<condition>` split; a key with no known condition is `filter.<field>` (equals). */
function splitKey(rest: string): { field: string; condition: string } {
  const dot = rest.lastIndexOf('.');
  if (dot === -1) return { field: rest, condition: 'equals' };
  return { field: rest.slice(0, dot), condition: rest.slice(dot + 1) };
}

export type ParsedFilters = { ok: true; filters: ListFilter[] } | { ok: false; key: string; why: string };

/**
 * Reads a request's `filter.*` parameters against a list's spec. An unknown field or condition,
 * more than MAX_LIST_FILTERS filters, a value over MAX_FILTER_LENGTH characters or a bad `in`
 * list is refused naming the parameter; an empty value is no filter.
 */
export function parseListFilters(
  params: Readonly<Record<string, string>>,
  spec: ListFilterSpec,
): ParsedFilters {
  const keys = Object.keys(params).filter((k) => k.startsWith('filter.'));
  if (keys.length > MAX_LIST_FILTERS)
    return { ok: false, key: 'filter', why: `at most ${MAX_LIST_FILTERS} filters` };
  const filters: ListFilter[] = [];
  for (const sent of keys) {
    const raw = params[sent] ?? '';
    if (raw.length > MAX_FILTER_LENGTH)
      return { ok: false, key: sent, why: `at most ${MAX_FILTER_LENGTH} characters` };
    const key = spec.aliases?.[sent] ?? sent;
    const { field, condition } = splitKey(key.slice('filter.'.length));
    const conditions = Object.hasOwn(spec.fields, field) ? spec.fields[field] : undefined;
    if (!conditions) return { ok: false, key: sent, why: 'unknown filter field' };
    if (!(conditions as readonly string[]).includes(condition))
      return { ok: false, key: sent, why: `unknown condition; ${field} takes ${conditions.join(', ')}` };
    const value = raw.trim();
    if (value === '') continue;
    if (condition === 'in') {
      const list = parseStringList(value);
      if (!list.ok) return { ok: false, key: sent, why: list.why };
      if (list.list.length > MAX_IN_VALUES)
        return { ok: false, key: sent, why: `at most ${MAX_IN_VALUES} values` };
      filters.push({ key: sent, field, condition, values: list.list });
    } else filters.push({ key: sent, field, condition: condition as FilterCondition, values: [value] });
  }
  return { ok: true, filters };
}

/** Only the grammar's bounds (count, length), for lists that check fields themselves (study/list). */
export function checkFilterBounds(params: Readonly<Record<string, string>>): ParsedFilters {
  const keys = Object.keys(params).filter((k) => k.startsWith('filter.'));
  if (keys.length > MAX_LIST_FILTERS)
    return { ok: false, key: 'filter', why: `at most ${MAX_LIST_FILTERS} filters` };
  for (const key of keys)
    if ((params[key] ?? '').length > MAX_FILTER_LENGTH)
      return { ok: false, key, why: `at most ${MAX_FILTER_LENGTH} characters` };
  return { ok: true, filters: [] };
}

/**
 * A LIKE pattern (`%` any run, `_` one character) compiled once, matched case-insensitively: the
 * pieces between `%` are found left to right, never revisited, so a match costs at most text length
 * × pattern length character comparisons (no backtracking, no regular expression); rows are
 * compared over their first FILTER_TEXT_CHARS characters.
 */
export function likeMatcher(pattern: string): (text: string) => boolean {
  const pieces = pattern.toLowerCase().split('%');
  const anchoredStart = !pattern.startsWith('%');
  const anchoredEnd = !pattern.endsWith('%');
  const at = (text: string, piece: string, from: number) => {
    // A piece without `_` is found by the engine's own substring search.
    if (!piece.includes('_')) return text.indexOf(piece, from);
    outer: for (let i = from; i + piece.length <= text.length; i++) {
      for (let j = 0; j < piece.length; j++) if (piece[j] !== '_' && piece[j] !== text[i + j]) continue outer;
      return i;
    }
    return -1;
  };
  const fits = (text: string, piece: string, i: number) =>
    i >= 0 && i + piece.length <= text.length && at(text.slice(i, i + piece.length), piece, 0) === 0;
  return (raw) => {
    const text = raw.toLowerCase();
    if (pieces.length === 1) return text.length === pieces[0]!.length && fits(text, pieces[0]!, 0);
    const first = pieces[0]!;
    const last = pieces[pieces.length - 1]!;
    if (anchoredStart && !fits(text, first, 0)) return false;
    let from = first.length;
    const end = anchoredEnd ? text.length - last.length : text.length;
    if (end < from) return false;
    for (const piece of pieces.slice(1, -1)) {
      if (!piece) continue;
      const found = at(text.slice(0, end), piece, from);
      if (found === -1) return false;
      from = found + piece.length;
    }
    return anchoredEnd ? fits(text, last, end) : true;
  };
}

export function likeMatches(pattern: string, text: string): boolean {
  return likeMatcher(pattern)(text);
}

/** How much of a row's value the filters read: a long message is compared by its start. */
export const FILTER_TEXT_CHARS = 1024;

/** A row value as the filters compare it: text, numbers as text, absent as empty. */
function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.slice(0, FILTER_TEXT_CHARS);
  if (typeof value === 'number' || typeof value === 'boolean') return String(Number(value));
  return '';
}

function compare(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  if (a !== '' && b !== '' && Number.isFinite(x) && Number.isFinite(y)) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}

type RowTest = (row: object) => boolean;

function testOf({ field, condition, values }: ListFilter): RowTest {
  const valueOf = (row: object) => textOf((row as Record<string, unknown>)[field]);
  const [first = ''] = values;
  switch (condition) {
    case 'equals':
      return (row) => valueOf(row) === first;
    case 'in':
      return (row) => values.includes(valueOf(row));
    case 'like': {
      const matches = likeMatcher(first);
      return (row) => matches(valueOf(row));
    }
    case 'ge':
      return (row) => compare(valueOf(row), first) >= 0;
    case 'gt':
      return (row) => compare(valueOf(row), first) > 0;
    case 'le':
      return (row) => compare(valueOf(row), first) <= 0;
    case 'lt':
      return (row) => compare(valueOf(row), first) < 0;
  }
}

/** The rows of a list read whole that pass all its filters (compared on the answer's fields). */
export function filterRows<T extends object>(rows: readonly T[], filters: readonly ListFilter[]): T[] {
  if (!filters.length) return [...rows];
  const tests = filters.map(testOf);
  return rows.filter((row) => tests.every((test) => test(row)));
}
