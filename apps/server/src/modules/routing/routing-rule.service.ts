import {
  ROUTE_EVENTS,
  ROUTE_NAME_MAX_LENGTH,
  routeActionsSchema,
  storedRouteConditionsSchema,
} from '@imaging-inbox/contract';
import type {
  RouteAction,
  RouteCondition,
  RouteEvent,
  RouteEventFlags,
  RouteFor,
  RoutingRule,
} from '@imaging-inbox/contract';
import { invalidField, missingFields } from '../../domain/errors.js';
import type { Caller } from '../../policies/index.js';
import { requireAdministeredIn, requireAdministration } from '../../policies/index.js';
import type { AccountsRepository } from '../../repositories/accounts.repository.js';
import type { DestinationsRepository } from '../pacs/index.js';
import type { DicomNodesRepository } from '../../repositories/dicom-nodes.repository.js';
import type { RoutingRuleRow, RoutingRulesRepository } from './routing-rules.repository.js';
import type { SendsRepository } from '../sharing/index.js';
import type { WebhooksRepository } from './webhooks.repository.js';
import type { AuditService } from '../../audit/audit.service.js';
import { auditAdmin, type AdminAudit } from '../../audit/admin-audit.js';
import { newUuid } from '../../security/tokens.js';
import { userPatternProblem } from './user-pattern.js';
import { givenFields, ifGiven } from '../../domain/given-fields.js';

/** The fields route/add and route/set take, parsed by the contract (undefined: not given). */
export interface RouteFields {
  name?: string | undefined;
  sequence?: number | undefined;
  for_type?: string | undefined;
  for_id?: string | undefined;
  when?: RouteEvent[] | undefined;
  /** Ambra's on_* flags: each turns its event on or off in `when` (never given with `when`). */
  when_flags?: RouteEventFlags | undefined;
  match?: string | undefined;
  conditions?: RouteCondition[] | undefined;
  actions?: RouteAction[] | undefined;
  disabled?: 0 | 1 | undefined;
}

interface Deps {
  rules: RoutingRulesRepository;
  accounts: AccountsRepository;
  nodes: DicomNodesRepository;
  destinations: DestinationsRepository;
  webhooks: WebhooksRepository;
  sends: SendsRepository;
  audit: AuditService;
  /**
   * The account's de-identification profiles a share action may name (privacy's Deidentifier,
   * decision 0071; declared here because privacy uses routing's pattern helper).
   */
  profiles?: { bind(accountId: string, profileId: string, field?: string): Promise<unknown> } | undefined;
  now?: () => number;
}

/**
 * Routing rules of an account (SPEC.md "Routing rule"): seen with route_view or route_edit, changed
 * with route_edit. Every reference a rule makes (its group or sender, the groups, destinations,
 * webhooks, connections and share codes of its actions) must exist in the rule's account when the
 * rule is saved; the engine (routing-engine.ts) checks them again when it runs.
 */
export class RoutingRuleService {
  private readonly now: () => number;

  private readonly admin: AdminAudit<RoutingRuleRow>;

  constructor(private readonly deps: Deps) {
    this.now = deps.now ?? Date.now;
    this.admin = auditAdmin(deps.audit, 'route', presentRule);
  }

  async list(caller: Caller, accountId: string): Promise<RoutingRule[]> {
    requireAdministration(caller, accountId, 'route', 'view');
    return (await this.deps.rules.ofAccount(accountId)).map(presentRule);
  }

  async get(caller: Caller, uuid: string): Promise<RoutingRule> {
    return presentRule(
      requireAdministeredIn(caller, await this.deps.rules.find(uuid), 'route', 'view', 'route'),
    );
  }

  async add(caller: Caller, accountId: string, given: RouteFields): Promise<RoutingRule> {
    requireAdministration(caller, accountId, 'route', 'edit');
    // A new rule's flags start from no event: the events flagged 1 are its `when`.
    const fields = { ...given, when: given.when ?? withFlags([], given.when_flags) };
    const missing = (['name', 'when', 'actions'] as const).filter((f) => fields[f] === undefined);
    if (missing.length) throw missingFields(missing);
    const valid = await this.validate(accountId, fields);
    const now = this.now();
    const row: RoutingRuleRow = {
      uuid: newUuid(),
      account_id: accountId,
      sequence: valid.sequence ?? (await this.deps.rules.nextSequence(accountId)),
      name: valid.name!,
      for_type: valid.for?.type ?? null,
      for_id: valid.for?.id ?? null,
      events: JSON.stringify(valid.when),
      match: valid.match ?? 'all',
      conditions: JSON.stringify(valid.conditions ?? []),
      actions: JSON.stringify(valid.actions),
      disabled: valid.disabled ?? 0,
      created_by: caller.user.uuid,
      created: now,
      updated: now,
    };
    await this.admin.add(caller, row, () => this.deps.rules.insert(row));
    return presentRule(row);
  }

  async set(caller: Caller, uuid: string, fields: RouteFields): Promise<RoutingRule> {
    const row = requireAdministeredIn(caller, await this.deps.rules.find(uuid), 'route', 'edit', 'route');
    // A flag changes its own event only; the rule's other events stay.
    const current = JSON.parse(row.events) as RouteEvent[];
    const when = fields.when ?? withFlags(current, fields.when_flags);
    const valid = await this.validate(row.account_id, { ...fields, when });
    const changes = givenFields({
      name: valid.name,
      sequence: valid.sequence,
      for_type: ifGiven(valid.for, (target) => target?.type ?? null),
      for_id: ifGiven(valid.for, (target) => target?.id ?? null),
      events: ifGiven(valid.when, JSON.stringify),
      match: valid.match,
      conditions: ifGiven(valid.conditions, JSON.stringify),
      actions: ifGiven(valid.actions, JSON.stringify),
      disabled: valid.disabled,
    });
    const write = (written: typeof changes) => this.deps.rules.update(uuid, written);
    return presentRule(await this.admin.edit(caller, row, changes, write, () => ({ updated: this.now() })));
  }

  async remove(caller: Caller, uuid: string): Promise<void> {
    const row = requireAdministeredIn(caller, await this.deps.rules.find(uuid), 'route', 'edit', 'route');
    await this.admin.remove(caller, row, () => this.deps.rules.remove(uuid));
  }

  /** Checks the fields given (each reference in the rule's account) and answers them cleaned. */
  private async validate(
    accountId: string,
    fields: RouteFields,
  ): Promise<Omit<RouteFields, 'for_type' | 'for_id'> & { for?: RouteFor | null }> {
    const out: Omit<RouteFields, 'for_type' | 'for_id'> & { for?: RouteFor | null } = {};
    if (fields.name !== undefined) {
      const name = fields.name.trim();
      if (!name) throw invalidField('name', 'is required');
      if (name.length > ROUTE_NAME_MAX_LENGTH) {
        throw invalidField('name', `at most ${ROUTE_NAME_MAX_LENGTH} characters`);
      }
      out.name = name;
    }
    if (fields.sequence !== undefined) out.sequence = fields.sequence;
    if (fields.for_type !== undefined || fields.for_id !== undefined) {
      out.for = await this.target(accountId, fields.for_type?.trim() ?? '', fields.for_id?.trim() ?? '');
    }
    if (fields.when !== undefined) {
      if (!fields.when.length) throw invalidField('when', `at least one of ${ROUTE_EVENTS.join(', ')}`);
      out.when = fields.when;
    }
    if (fields.match !== undefined) {
      const match = fields.match.trim();
      if (match !== 'all' && match !== 'any') throw invalidField('match', 'must be all or any');
      out.match = match;
    }
    if (fields.conditions !== undefined) {
      // The contract checked each pattern's syntax and size; RE2, the engine that will run it, has the last word.
      for (const [i, condition] of fields.conditions.entries()) {
        const problem = condition.op === 'regex' ? userPatternProblem(condition.value) : null;
        if (problem) throw invalidField('conditions', `${i}.value: regex ${problem}`);
      }
      out.conditions = fields.conditions;
    }
    if (fields.actions !== undefined) {
      for (const [i, action] of fields.actions.entries()) await this.checkAction(accountId, action, i);
      out.actions = fields.actions;
    }
    if (fields.disabled !== undefined) out.disabled = fields.disabled;
    return out;
  }

  private async target(accountId: string, type: string, id: string): Promise<RouteFor | null> {
    if (!type && !id) return null;
    if (type === 'group') {
      const group = await this.deps.accounts.findGroup(id);
      if (!group || group.account_id !== accountId)
        throw invalidField('for_id', 'no such group in this account');
      return { type, id };
    }
    if (type === 'sender') {
      const node = await this.deps.nodes.find(id);
      if (!node || node.account_id !== accountId) {
        throw invalidField('for_id', 'no such DICOM sender in this account');
      }
      return { type, id };
    }
    throw invalidField('for_type', 'must be group or sender');
  }

  private async checkAction(accountId: string, action: RouteAction, index: number): Promise<void> {
    const field = `actions.${index}`;
    switch (action.type) {
      case 'share_group': {
        const group = await this.deps.accounts.findGroup(action.group_id);
        if (!group || group.account_id !== accountId)
          throw invalidField(field, 'no such group in this account');
        // Only a profile of the rule's own account: another account's reads as a made-up id.
        if (action.anonymization_id) {
          if (!this.deps.profiles) throw invalidField(field, 'de-identification is not available');
          await this.deps.profiles.bind(accountId, action.anonymization_id, field);
        }
        return;
      }
      case 'push': {
        const destination = await this.deps.destinations.find(action.destination_id);
        if (!destination || destination.account_id !== accountId) {
          throw invalidField(field, 'no such destination in this account');
        }
        if (Number(destination.can_push) !== 1) throw invalidField(field, 'this destination takes no pushes');
        return;
      }
      case 'webhook': {
        const hook = await this.deps.webhooks.find(action.webhook_id);
        if (!hook || hook.account_id !== accountId)
          throw invalidField(field, 'no such webhook in this account');
        return;
      }
      case 'connection':
        if (!(await this.deps.sends.connection(accountId, action.connection_id))) {
          throw invalidField(field, 'no such connection in this account');
        }
        return;
      case 'share_code':
        if (!(await this.deps.sends.byShareCode(action.share_code.trim().toUpperCase()))) {
          throw invalidField(field, 'no group has this share code');
        }
        return;
    }
  }
}

/**
 * A stored rule as route/get answers it; JSON columns were checked on the way in. Conditions are
 * read without today's regex check, so a rule saved under older checks still shows (and the
 * engine fails it with the reason: routing-engine.ts).
 */
export function presentRule(row: RoutingRuleRow): RoutingRule {
  return {
    uuid: row.uuid,
    account_id: row.account_id,
    sequence: Number(row.sequence),
    name: row.name,
    for: row.for_type && row.for_id ? { type: row.for_type as RouteFor['type'], id: row.for_id } : null,
    when: JSON.parse(row.events) as RouteEvent[],
    match: row.match === 'any' ? 'any' : 'all',
    conditions: storedRouteConditionsSchema.parse(JSON.parse(row.conditions)),
    actions: routeActionsSchema.parse(JSON.parse(row.actions)),
    disabled: Number(row.disabled) ? 1 : 0,
    created: Number(row.created),
    updated: Number(row.updated),
  };
}

/** `events` with each flagged event turned on (1) or off (0), in ROUTE_EVENTS order; undefined without flags. */
function withFlags(
  events: readonly RouteEvent[],
  flags: RouteEventFlags | undefined,
): RouteEvent[] | undefined {
  if (!flags) return undefined;
  return ROUTE_EVENTS.filter((event) => (flags[event] ?? (events.includes(event) ? 1 : 0)) === 1);
}
