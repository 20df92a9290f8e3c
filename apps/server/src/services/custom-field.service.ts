import type {
  CustomField,
  CustomFieldObject,
  CustomFieldOption,
  CustomFieldListRequest,
  CustomFieldType,
  CustomFieldValueParam,
} from '@imaging-inbox/contract';
import { customFieldProblem } from '@imaging-inbox/contract';
import { DomainError, invalidField } from '../domain/errors.js';
import type { Caller } from '../policies/index.js';
import { requireAccountMember } from '../policies/index.js';
import type { CustomFieldRow, CustomFieldsRepository } from '../repositories/custom-fields.repository.js';

/** One validated change of a study's custom field value, with the names the history shows. */
export interface CustomFieldChange {
  uuid: string;
  name: string;
  before: string | null;
  after: string | null;
}

/**
 * Custom field definitions of an account: listing them for its members, and checking the values a
 * study/set carries against them before anything is written.
 */
export class CustomFieldService {
  constructor(private readonly deps: { fields: CustomFieldsRepository }) {}

  /** customfield/list: members of the account only; another account answers NOT_FOUND. */
  async list(caller: Caller, request: CustomFieldListRequest): Promise<CustomField[]> {
    requireAccountMember(caller, request.accountId);
    const { object, uuids } = request;
    return (await this.deps.fields.list(request.accountId, { object, uuids })).map(presentCustomField);
  }

  /**
   * The custom field changes of a study/set for a study of this account, checked against the
   * account's definitions: an unknown field, a value that is not one of a radio or select field's
   * options, a blank required field or a too long text refuses the whole call (INVALID_FIELD naming
   * the parameter). Fields the call does not name keep their values. Unchanged values are dropped.
   */
  async changes(
    accountId: string,
    wanted: readonly CustomFieldValueParam[],
    current: ReadonlyMap<string, string | null>,
  ): Promise<CustomFieldChange[]> {
    if (!wanted.length) return [];
    const defined = new Map(
      (await this.deps.fields.list(accountId, { object: 'study', uuids: wanted.map((w) => w.uuid) })).map(
        (row) => [row.uuid, presentCustomField(row)],
      ),
    );
    const changes: CustomFieldChange[] = [];
    for (const { key, uuid, value } of wanted) {
      const field = defined.get(uuid);
      if (!field) throw invalidField(key, 'unknown custom field');
      const problem = customFieldProblem(field, value);
      if (problem === 'required') throw invalidField(key, `${field.name} is required`);
      if (problem === 'not_an_option') throw invalidField(key, `${field.name} must be one of its options`);
      if (problem === 'too_long') throw invalidField(key, `${field.name} is too long`);
      const after = value.trim() === '' ? null : value.trim();
      const before = current.get(uuid) ?? null;
      if (after !== before) changes.push({ uuid, name: field.name, before, after });
    }
    return changes;
  }
}

export function presentCustomField(row: CustomFieldRow): CustomField {
  return {
    uuid: row.uuid,
    account_id: row.account_id,
    name: row.name,
    type: row.type as CustomFieldType,
    required: row.required ? 1 : 0,
    options: parseOptions(row.options),
    object: row.object as CustomFieldObject,
    display_order: Number(row.display_order),
  };
}

function parseOptions(json: string): CustomFieldOption[] {
  try {
    const parsed: unknown = JSON.parse(json);
    if (!Array.isArray(parsed)) throw new Error('not an array');
    return parsed.map((o: { value?: unknown; field_label?: unknown }) => ({
      value: String(o.value),
      field_label: String(o.field_label ?? o.value),
    }));
  } catch {
    // A definition row is written by this code only; a broken one is a bug, not bad input.
    throw new DomainError('INTERNAL', 'custom field options are not readable');
  }
}
