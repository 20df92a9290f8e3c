import {
  ANONYMIZATION_MAX_GROUPS,
  ANONYMIZATION_MAX_PROFILES,
  ANONYMIZATION_NAME_MAX_LENGTH,
  anonymizationOptionsSchema,
  anonymizationRulesSchema,
  firstIssue,
  type AnonymizationOption,
  type AnonymizationProfile,
  type AnonymizationRule,
} from '@imaging-inbox/contract';
import { auditAdmin, type AdminAudit } from '../../audit/admin-audit.js';
import type { AuditService } from '../../audit/audit.service.js';
import { DomainError, invalidField } from '../../domain/errors.js';
import { givenFields } from '../../domain/given-fields.js';
import type { Caller } from '../../policies/index.js';
import { requireAdministeredIn, requireAdministration } from '../../policies/index.js';
import { newUuid } from '../../security/tokens.js';
import { userPatternProblem } from '../routing/index.js';
import type {
  AnonymizationProfileRow,
  AnonymizationProfilesRepository,
} from './anonymization-profiles.repository.js';

/** The fields anonymization/add and set take, as sent (JSON text for options and rules). */
export interface AnonymizationFields {
  name?: string | undefined;
  options?: string | undefined;
  rules?: string | undefined;
  keep_burned_in?: 0 | 1 | undefined;
  keep_attachments?: 0 | 1 | undefined;
  groups?: string | undefined;
}

interface Deps {
  profiles: AnonymizationProfilesRepository;
  audit: AuditService;
  now?: () => number;
}

/**
 * An account's de-identification profiles (anonymization/*, decision 0067): seen with
 * anonymization_view or _edit, changed with anonymization_edit (an account admin holds both); a
 * member lacking them is refused, anyone outside the account finds nothing. Every rewrite rule's
 * pattern must compile on RE2 (decision 0053) before it is saved. A profile something still applies
 * (a group, a destination, a live request link, a routing rule, a queued push) is not deleted:
 * IN_USE `anonymization` names what uses it (decision 0073).
 */
export class AnonymizationService {
  private readonly admin: AdminAudit<AnonymizationProfileRow>;

  constructor(private readonly deps: Deps) {
    this.admin = auditAdmin(deps.audit, 'anonymization', auditView);
  }

  async list(caller: Caller, accountId: string): Promise<AnonymizationProfile[]> {
    requireAdministration(caller, accountId, 'anonymization', 'view');
    return (await this.deps.profiles.listOfAccount(accountId)).map(presentProfile);
  }

  async get(caller: Caller, uuid: string): Promise<AnonymizationProfile> {
    const row = await this.deps.profiles.find(uuid);
    return presentProfile(requireAdministeredIn(caller, row, 'anonymization', 'view', 'anonymization'));
  }

  async add(caller: Caller, accountId: string, fields: AnonymizationFields): Promise<AnonymizationProfile> {
    requireAdministration(caller, accountId, 'anonymization', 'edit');
    if (!fields.name?.trim()) throw invalidField('name', 'is required');
    const valid = validate(fields);
    if (valid.groups) await this.checkGroups(accountId, valid.groups, undefined);
    if ((await this.deps.profiles.countOfAccount(accountId)) >= ANONYMIZATION_MAX_PROFILES)
      throw invalidField('account_id', `at most ${ANONYMIZATION_MAX_PROFILES} profiles per account`);
    const now = (this.deps.now ?? Date.now)();
    const row: AnonymizationProfileRow = {
      uuid: newUuid(),
      account_id: accountId,
      name: valid.name!,
      options: JSON.stringify(valid.options ?? []),
      rules: JSON.stringify(valid.rules ?? []),
      keep_burned_in: valid.keep_burned_in ?? 0,
      keep_attachments: valid.keep_attachments ?? 0,
      groups: JSON.stringify(valid.groups ?? []),
      created: now,
      updated: now,
    };
    await this.admin.add(caller, row, () => this.deps.profiles.insert(row));
    return presentProfile(row);
  }

  async set(caller: Caller, uuid: string, fields: AnonymizationFields): Promise<AnonymizationProfile> {
    const row = requireAdministeredIn(
      caller,
      await this.deps.profiles.find(uuid),
      'anonymization',
      'edit',
      'anonymization',
    );
    const valid = validate(fields);
    if (valid.groups) await this.checkGroups(row.account_id, valid.groups, uuid);
    const changes = givenFields({
      name: valid.name,
      options: valid.options === undefined ? undefined : JSON.stringify(valid.options),
      rules: valid.rules === undefined ? undefined : JSON.stringify(valid.rules),
      keep_burned_in: valid.keep_burned_in,
      keep_attachments: valid.keep_attachments,
      groups: valid.groups === undefined ? undefined : JSON.stringify(valid.groups),
    });
    const now = this.deps.now ?? Date.now;
    const after = await this.admin.edit(
      caller,
      row,
      changes,
      (written) => this.deps.profiles.update(uuid, written),
      () => ({ updated: now() }),
    );
    return presentProfile(after);
  }

  /** Every group named is a group of the account that no other profile of it de-identifies into. */
  private async checkGroups(accountId: string, groups: string[], self: string | undefined): Promise<void> {
    const known = new Set(await this.deps.profiles.groupsOfAccount(accountId, groups));
    const unknown = groups.find((g) => !known.has(g));
    if (unknown) throw invalidField('groups', `${unknown} is not a group of the account`);
    for (const other of await this.deps.profiles.listOfAccount(accountId)) {
      if (other.uuid === self) continue;
      const taken = groups.find((g) => (JSON.parse(other.groups) as string[]).includes(g));
      if (taken)
        throw invalidField('groups', `${taken} is already de-identified by the profile ${other.name}`);
    }
  }

  async remove(caller: Caller, uuid: string): Promise<void> {
    const row = requireAdministeredIn(
      caller,
      await this.deps.profiles.find(uuid),
      'anonymization',
      'edit',
      'anonymization',
    );
    const now = (this.deps.now ?? Date.now)();
    await this.admin.remove(caller, row, async () => {
      const uses = await this.deps.profiles.removeUnused(row, now);
      // Deleting a profile in use would silently stop de-identifying (a group) or fail what is
      // queued: the admin is told what names it, to change those first.
      if (uses.length) throw new DomainError('IN_USE', 'anonymization', { uses });
    });
  }
}

function parseJson(field: string, raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw invalidField(field, 'must be JSON');
  }
}

/** Checks the fields given; answers them parsed (an absent field stays undefined). */
function validate(fields: AnonymizationFields) {
  const out: {
    name?: string;
    options?: AnonymizationOption[];
    rules?: AnonymizationRule[];
    keep_burned_in?: 0 | 1;
    keep_attachments?: 0 | 1;
    groups?: string[];
  } = {};
  if (fields.name !== undefined) {
    const name = fields.name.trim();
    if (!name) throw invalidField('name', 'is required');
    if (name.length > ANONYMIZATION_NAME_MAX_LENGTH)
      throw invalidField('name', `at most ${ANONYMIZATION_NAME_MAX_LENGTH} characters`);
    out.name = name;
  }
  if (fields.options !== undefined) {
    const raw = fields.options.trim();
    const value =
      raw === '' ? [] : raw.startsWith('[') ? parseJson('options', raw) : raw.split(',').map((s) => s.trim());
    const parsed = anonymizationOptionsSchema.safeParse(value);
    if (!parsed.success) throw invalidField('options', firstIssue(parsed.error));
    out.options = [...new Set(parsed.data)];
  }
  if (fields.rules !== undefined) {
    const raw = fields.rules.trim();
    const parsed = anonymizationRulesSchema.safeParse(raw === '' ? [] : parseJson('rules', raw));
    if (!parsed.success) throw invalidField('rules', firstIssue(parsed.error));
    const seen = new Set<string>();
    for (const [i, rule] of parsed.data.entries()) {
      if (seen.has(rule.tag)) throw invalidField('rules', `${i}.tag: ${rule.tag} has two rules`);
      seen.add(rule.tag);
      if (rule.action === 'rewrite') {
        const problem = userPatternProblem(rule.pattern);
        if (problem) throw invalidField('rules', `${i}.pattern: ${problem}`);
      }
    }
    out.rules = parsed.data;
  }
  if (fields.groups !== undefined) {
    const raw = fields.groups.trim();
    const value =
      raw === '' ? [] : raw.startsWith('[') ? parseJson('groups', raw) : raw.split(',').map((g) => g.trim());
    if (!Array.isArray(value) || !value.every((g) => typeof g === 'string' && g.length > 0 && g.length <= 64))
      throw invalidField('groups', 'a JSON array of group ids');
    if (value.length > ANONYMIZATION_MAX_GROUPS)
      throw invalidField('groups', `at most ${ANONYMIZATION_MAX_GROUPS} groups`);
    out.groups = [...new Set(value as string[])];
  }
  if (fields.keep_burned_in !== undefined) out.keep_burned_in = fields.keep_burned_in;
  if (fields.keep_attachments !== undefined) out.keep_attachments = fields.keep_attachments;
  return out;
}

function auditView(row: AnonymizationProfileRow) {
  const p = presentProfile(row);
  return {
    name: p.name,
    options: p.options,
    rules: p.rules.length,
    keep_burned_in: p.keep_burned_in,
    keep_attachments: p.keep_attachments,
    groups: p.groups,
  };
}

export function presentProfile(row: AnonymizationProfileRow): AnonymizationProfile {
  return {
    uuid: row.uuid,
    account_id: row.account_id,
    name: row.name,
    options: JSON.parse(row.options) as AnonymizationOption[],
    rules: JSON.parse(row.rules) as AnonymizationRule[],
    keep_burned_in: Number(row.keep_burned_in) ? 1 : 0,
    keep_attachments: Number(row.keep_attachments) ? 1 : 0,
    groups: JSON.parse(row.groups) as string[],
    created: Number(row.created),
    updated: Number(row.updated),
  };
}
