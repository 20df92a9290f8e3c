import {
  cloudGroupConfigSchema,
  gatekeeperConfigSchema,
  type CloudGroupConfig,
  type GatekeeperConfig,
  type GroupWorkflowConfig,
} from '@imaging-inbox/contract';
import type { z } from 'zod';
import { invalidField, notFound } from '../../domain/errors.js';
import type { Caller, GroupAccess } from '../../policies/index.js';
import { requireAccountAdmin } from '../../policies/index.js';
import type { GroupConfigsRepository, GroupOfAccount } from './group-configs.repository.js';
import type { AuditService } from '../../audit/audit.service.js';

/** What a configuration is checked against: the account's destinations, as the pacs module lists them. */
export interface ConfigDestinations {
  listOfAccount(accountId: string, uuids: string[]): Promise<ConfigDestination[]>;
}

/** A destination as a gatekeeper configuration names it: may it take pushes, answer a search? */
export interface ConfigDestination {
  uuid: string;
  name: string;
  can_push: number;
  can_search: number;
  can_search_mwl: number;
}

interface Deps {
  configs: GroupConfigsRepository;
  /** Declared here rather than read from pacs's repository, so admin does not reach into pacs. */
  destinations: ConfigDestinations;
  audit: AuditService;
  now?: () => number;
}

/**
 * The gatekeeper workflow's configuration of groups (SPEC.md section 3): a gatekeeper group's
 * nomination form, promote preference, destinations and query destination; a cloud group's list of
 * gatekeepers it may nominate to. The account admin writes it (group/config/set); members read it
 * through group/get. Every write is checked whole against the contract's schema and against the
 * account's own destinations and groups, so a stored configuration always names real things.
 */
export class GroupConfigService {
  private readonly now: () => number;

  constructor(private readonly deps: Deps) {
    this.now = deps.now ?? Date.now;
  }

  /** A gatekeeper group's configuration, or null when it has none (the form is not configured). */
  async gatekeeper(groupId: string): Promise<GatekeeperConfig | null> {
    const raw = await this.deps.configs.get(groupId);
    return raw ? gatekeeperConfigSchema.parse(JSON.parse(raw)) : null;
  }

  /** A cloud group's configuration; none is an empty promote list. */
  async cloud(groupId: string): Promise<CloudGroupConfig> {
    const raw = await this.deps.configs.get(groupId);
    return raw ? cloudGroupConfigSchema.parse(JSON.parse(raw)) : { promoteTo: [] };
  }

  /** What group/get adds for a group the caller is in. */
  async describe(group: GroupAccess): Promise<GroupWorkflowConfig> {
    if (group.type === 'GATEKEEPER') {
      return { type: 'GATEKEEPER', gatekeeper_config: await this.gatekeeper(group.groupId) };
    }
    if (group.type !== 'CLOUD') return { type: 'LIBRARY' };
    const cloud_config = await this.cloud(group.groupId);
    const targets = await this.deps.configs.groupsOfAccount(group.accountId, cloud_config.promoteTo);
    const promote_targets = await Promise.all(
      targets
        .filter((g) => g.type === 'GATEKEEPER')
        .map(async (g) => ({
          uuid: g.uuid,
          name: g.name,
          customFields: (await this.gatekeeper(g.uuid))?.customFields ?? null,
        })),
    );
    return { type: 'CLOUD', cloud_config, promote_targets };
  }

  /** group/config/set: the account admin replaces a gatekeeper or cloud group's configuration. */
  async set(caller: Caller, groupId: string, config: unknown): Promise<GroupWorkflowConfig> {
    const group = await this.deps.configs.group(groupId);
    if (!group) throw notFound('group');
    requireAccountAdmin(caller, group.account_id, 'group');
    let stored: GatekeeperConfig | CloudGroupConfig;
    if (group.type === 'GATEKEEPER') {
      stored = checked(gatekeeperConfigSchema, config);
      await this.checkDestinations(group, stored);
    } else if (group.type === 'CLOUD') {
      stored = checked(cloudGroupConfigSchema, config);
      const targets = await this.deps.configs.groupsOfAccount(group.account_id, stored.promoteTo);
      const gatekeepers = new Set(targets.filter((g) => g.type === 'GATEKEEPER').map((g) => g.uuid));
      const stray = stored.promoteTo.find((uuid) => !gatekeepers.has(uuid));
      if (stray)
        throw invalidField('config', `promoteTo: ${stray} is not a gatekeeper group of this account`);
    } else {
      throw invalidField('config', 'a library group has no gatekeeper workflow');
    }
    await this.deps.configs.set(group.uuid, group.account_id, JSON.stringify(stored), this.now());
    await this.deps.audit.recordAdministration(
      caller,
      group.account_id,
      'UPDATE',
      'group_config',
      group.uuid,
      {
        group_name: group.name,
        type: group.type,
        config: stored,
      },
    );
    return group.type === 'GATEKEEPER'
      ? { type: 'GATEKEEPER', gatekeeper_config: stored as GatekeeperConfig }
      : { type: 'CLOUD', cloud_config: stored as CloudGroupConfig, promote_targets: [] };
  }

  /** Send destinations must take pushes; the query destination must answer the preference's query. */
  private async checkDestinations(group: GroupOfAccount, config: GatekeeperConfig): Promise<void> {
    const named = [...config.destinations, ...(config.queryDestination ? [config.queryDestination] : [])];
    const rows = new Map(
      (await this.deps.destinations.listOfAccount(group.account_id, [...new Set(named)])).map((d) => [
        d.uuid,
        d,
      ]),
    );
    for (const uuid of config.destinations) {
      const d = rows.get(uuid);
      if (!d) throw invalidField('config', `destinations: ${uuid} is not a destination of this account`);
      if (Number(d.can_push) !== 1) throw invalidField('config', `destinations: ${d.name} takes no pushes`);
    }
    if (config.queryDestination) {
      const d = rows.get(config.queryDestination);
      if (!d) throw invalidField('config', 'queryDestination: not a destination of this account');
      const can = config.pacsPromotePreference === 'MWL' ? d.can_search_mwl : d.can_search;
      if (config.pacsPromotePreference !== 'NONE' && Number(can) !== 1) {
        throw invalidField(
          'config',
          `queryDestination: ${d.name} does not answer ${config.pacsPromotePreference}`,
        );
      }
    }
  }
}

/** The configuration as the schema reads it, or INVALID_FIELD `config` naming the first problem. */
function checked<S extends z.ZodType>(schema: S, config: unknown): z.output<S> {
  const result = schema.safeParse(config);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw invalidField('config', `${issue.path.join('.') || 'config'}: ${issue.message}`);
}
