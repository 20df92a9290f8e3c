import type { AuditAction } from '@imaging-inbox/contract';
import type {
  CustomField,
  CustomFieldObject,
  CustomFieldOption,
  CustomFieldListRequest,
  CustomFieldType,
  CustomFieldValueParam,
  CustomFieldAddRequest,
  CustomFieldSetRequest,
} from '@imaging-inbox/contract';
import { customFieldProblem } from '@imaging-inbox/contract';
import { DomainError, invalidField, notFound } from '../../domain/errors.js';
import type { Caller } from '../../policies/index.js';
import { requireAccountMember, requireAdministration } from '../../policies/index.js';
import { isUniqueViolation } from '../../repositories/unique-violation.js';
import type { AuditService } from '../../audit/audit.service.js';
import { newUuid } from '../../security/tokens.js';
import type { CustomFieldRow, CustomFieldsRepository } from './custom-fields.repository.js';
import { givenFields, ifGiven } from '../../domain/given-fields.js';

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
  constructor(
    private readonly deps: { fields: CustomFieldsRepository; audit?: AuditService; now?: () => number },
  ) {}

  /**
   * customfield/add, /set, /delete: the account's group administrators (group_edit) define the
   * fields. A radio or select field needs at least one choice; text and memo take none.
   */
  async add(caller: Caller, input: CustomFieldAddRequest): Promise<CustomField> {
    requireAdministration(caller, input.account_id, 'group', 'edit');
    const options = checkOptions(input.type, input.options ?? []);
    const uuid = newUuid();
    try {
      await this.deps.fields.insert({
        uuid,
        account_id: input.account_id,
        object: 'study',
        name: input.name,
        type: input.type,
        required: input.required ?? 0,
        options: JSON.stringify(options),
        display_order: await this.deps.fields.nextOrder(input.account_id, 'study'),
        created: (this.deps.now ?? Date.now)(),
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken();
      throw error;
    }
    await this.record(caller, input.account_id, 'ADD', uuid, { name: input.name, type: input.type });
    return presentCustomField((await this.deps.fields.find(uuid))!);
  }

  async set(caller: Caller, input: CustomFieldSetRequest): Promise<CustomField> {
    const before = await this.administered(caller, input.uuid);
    const type = before.type as CustomFieldType;
    const options = input.options === undefined ? undefined : checkOptions(type, input.options);
    try {
      await this.deps.fields.update(
        input.uuid,
        givenFields({
          name: input.name,
          required: input.required,
          options: ifGiven(options, JSON.stringify),
        }),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken();
      throw error;
    }
    const after = presentCustomField((await this.deps.fields.find(input.uuid))!);
    await this.record(caller, before.account_id, 'EDIT', before.uuid, {
      before: presentCustomField(before),
      after,
    });
    return after;
  }

  async remove(caller: Caller, uuid: string): Promise<void> {
    const row = await this.administered(caller, uuid);
    await this.deps.fields.remove(uuid);
    await this.record(caller, row.account_id, 'DELETE', uuid, { name: row.name });
  }

  private async administered(caller: Caller, uuid: string): Promise<CustomFieldRow> {
    const row = await this.deps.fields.find(uuid);
    if (!row || !caller.accounts.has(row.account_id)) throw notFound('customfield');
    requireAdministration(caller, row.account_id, 'group', 'edit');
    return row;
  }

  private async record(
    caller: Caller,
    accountId: string,
    action: AuditAction,
    uuid: string,
    detail: unknown,
  ) {
    await this.deps.audit?.recordAdministration(
      caller,
      accountId,
      action,
      'CUSTOMFIELD',
      uuid,
      detail as Record<string, unknown>,
    );
  }

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

const nameTaken = () => invalidField('name', 'another custom field of the account has this name');

function checkOptions(type: CustomFieldType, options: CustomFieldOption[]): CustomFieldOption[] {
  const choices = type === 'radio' || type === 'select';
  if (choices && !options.length) throw invalidField('options', `a ${type} field needs at least one choice`);
  if (!choices && options.length) throw invalidField('options', `a ${type} field has no choices`);
  return options;
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
