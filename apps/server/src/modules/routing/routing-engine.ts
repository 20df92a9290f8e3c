import type { RouteAction, RouteEvent, WebhookEvent } from '@imaging-inbox/contract';
import { DomainError, invalidField, notFound } from '../../domain/errors.js';
import { ROUTE_ACTION_JOB, ROUTE_EVALUATE_JOB } from '../../jobs/job-kinds.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { PermanentJobError } from '../../jobs/job-runner.js';
import type { StoredInstance } from '../../notifications/harvest-notifier.js';
import type { Caller } from '../../policies/index.js';
import { requireStudy } from '../../policies/index.js';
import type { AccountsRepository } from '../../repositories/accounts.repository.js';
import type { DicomNodesRepository } from '../../repositories/dicom-nodes.repository.js';
import type { RoutingRuleRow, RoutingRulesRepository } from './routing-rules.repository.js';
import type { StudiesRepository, StudyRow } from '../../repositories/studies.repository.js';
import type { UsersRepository } from '../../repositories/users.repository.js';
import { studyEvent, type AuditService } from '../../audit/audit.service.js';
import { matches } from './routing-conditions.js';
import { UserPatternError } from './user-pattern.js';
import { presentRule } from './routing-rule.service.js';
import type { SendService } from '../sharing/index.js';
import type { ShareService } from '../sharing/index.js';
import type { StudyPushService } from '../pacs/index.js';
import type { WebhookService } from './webhook.service.js';

export type Trigger = Exclude<RouteEvent, 'manual'>;

/** One queued action of one rule on one study (ROUTE_ACTION_JOB's payload). */
export interface RouteActionRun {
  rule: string;
  study: string;
  action: number;
  trigger: RouteEvent;
  /** Who ran it by hand (study/manual/route); the rule's author otherwise. */
  by?: string | undefined;
}

interface Deps {
  rules: RoutingRulesRepository;
  studies: StudiesRepository;
  accounts: AccountsRepository;
  nodes: DicomNodesRepository;
  users: UsersRepository;
  jobs: JobQueue;
  audit: AuditService;
  /** How long a study that arrives instance by instance must be quiet before it is routed. */
  quietMs: number;
  log: (line: string) => void;
  now?: () => number;
}

/** The actions' services, set once they exist (they are built after the engine they report to). */
export interface RoutingActions {
  shares: ShareService;
  pushes: StudyPushService;
  sends: SendService;
  webhooks: WebhookService;
}

/** Which ingest sources are an upload and which a sender's harvest; others (seed, retrieve) route nothing. */
const TRIGGER_OF_SOURCE: Record<string, Trigger> = {
  upload: 'upload',
  stow: 'upload',
  link: 'upload',
  wrap: 'upload',
  cstore: 'harvest',
};

const WEBHOOK_EVENT_OF: Record<Trigger, WebhookEvent> = {
  upload: 'study_uploaded',
  harvest: 'study_harvested',
  share: 'study_shared',
};

/**
 * The routing engine: a study that arrived (an upload or a sender's C-STOREs, once the study has
 * been quiet for `quietMs`) or was shared or sent into a group is an event; its account's webhooks
 * hear of it, and its routing rules are read in sequence. Each rule whose target, trigger and
 * conditions match queues each of its actions as a durable job whose dedupe key is (rule, study,
 * action): it runs once, even when the event is seen again or the server restarts in between.
 * Each action's outcome is recorded in the study's history (action ROUTE).
 */
export class RoutingEngine {
  private readonly now: () => number;
  private actions: RoutingActions | undefined;

  constructor(private readonly deps: Deps) {
    this.now = deps.now ?? Date.now;
  }

  connect(actions: RoutingActions): void {
    this.actions = actions;
  }

  /** From the ingest pipeline: the first instance of a new study schedules its routing once quiet. */
  async noteStored(event: StoredInstance): Promise<void> {
    const trigger = TRIGGER_OF_SOURCE[event.source.kind];
    if (!trigger || !event.studyCreated) return;
    try {
      await this.schedule(event.studyUuid, trigger, this.now() + this.deps.quietMs);
    } catch (error) {
      // The instance is stored and acknowledged either way.
      this.deps.log(`Could not schedule the routing of study ${event.studyUuid}: ${String(error)}`);
    }
  }

  /** A copy shared or sent into a group: routed at once (it arrives whole). */
  async noteShared(copyUuid: string): Promise<void> {
    await this.schedule(copyUuid, 'share', this.now());
  }

  /** study/manual/route: runs one rule's actions on a study now, whatever its trigger and conditions. */
  async manual(caller: Caller, ruleId: string, studyUuid: string): Promise<{ actions: number }> {
    const study = requireStudy(caller, await this.deps.studies.findByUuid(studyUuid), {
      permissions: ['study_manual_route'],
    });
    const rule = await this.deps.rules.find(ruleId);
    if (!rule || rule.account_id !== study.account_id) throw notFound('route');
    if (Number(rule.disabled)) throw invalidField('route_id', 'this rule is disabled');
    const actions = presentRule(rule).actions;
    // Each run by hand is its own: the same rule may be run again on the same study.
    const run = `${this.now()}:${Math.random().toString(36).slice(2)}`;
    for (let i = 0; i < actions.length; i++) {
      await this.deps.jobs.enqueue(
        ROUTE_ACTION_JOB,
        { rule: rule.uuid, study: study.uuid, action: i, trigger: 'manual', by: caller.user.uuid },
        { dedupeKey: `route-manual:${rule.uuid}:${study.uuid}:${i}:${run}` },
      );
    }
    this.deps.jobs.kick();
    return { actions: actions.length };
  }

  /** Records an action that ran out of attempts as a failed run of its rule on the study. */
  async giveUpAction(p: RouteActionRun, error: string): Promise<void> {
    const [rule, study] = await Promise.all([
      this.deps.rules.find(p.rule),
      this.deps.studies.findByUuid(p.study),
    ]);
    if (rule && study) await this.record(rule, study, p, 'FAILURE', { error });
  }

  private async schedule(studyUuid: string, trigger: Trigger, runAt: number): Promise<void> {
    await this.deps.jobs.enqueue(
      ROUTE_EVALUATE_JOB,
      { study: studyUuid, trigger },
      { runAt, dedupeKey: `route-evaluate:${trigger}:${studyUuid}` },
    );
    if (runAt <= this.now()) this.deps.jobs.kick();
  }

  /** The route.evaluate job (route-jobs.ts): once the study is quiet, tells webhooks and queues the matching rules' actions. */
  async evaluate(studyUuid: string, trigger: Trigger): Promise<void> {
    const study = await this.deps.studies.findByUuid(studyUuid);
    if (!study || study.deleted !== null) return;
    if (trigger !== 'share') {
      const quietFrom = Number(study.updated) + this.deps.quietMs;
      if (quietFrom > this.now()) {
        // Still arriving: look again once quiet (one job per state of the study, so never twice).
        await this.deps.jobs.enqueue(
          ROUTE_EVALUATE_JOB,
          { study: studyUuid, trigger },
          { runAt: quietFrom, dedupeKey: `route-evaluate:${trigger}:${studyUuid}:${study.updated}` },
        );
        return;
      }
    }
    await this.actions?.webhooks.emit(study.account_id, WEBHOOK_EVENT_OF[trigger], study);
    const rules = (await this.deps.rules.ofAccount(study.account_id)).filter((r) => !Number(r.disabled));
    let custom: Map<string, string | null> | undefined;
    for (const row of rules) {
      const rule = presentRule(row);
      if (!rule.when.includes(trigger)) continue;
      if (!(await this.targets(row, study))) continue;
      custom ??= await this.deps.studies.customFieldValues(study.uuid);
      let matched: boolean;
      try {
        matched = await matches(rule.conditions, rule.match, study, custom);
      } catch (error) {
        if (!(error instanceof UserPatternError)) throw error;
        // A pattern saved before RE2 ran them that RE2 cannot compile (a backreference, say): this
        // rule fails, with the reason in the study's history; the account's other rules still run.
        this.deps.log(`Routing rule ${rule.uuid} failed on study ${study.uuid}: regex ${error.message}`);
        await this.record(row, study, { action: -1, trigger }, 'FAILURE', {
          error: `a regex condition ${error.message}`,
        });
        continue;
      }
      // Other work runs between two rules: an account's many rules never hold the process at once.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (!matched) continue;
      for (let i = 0; i < rule.actions.length; i++) {
        await this.deps.jobs.enqueue(
          ROUTE_ACTION_JOB,
          { rule: rule.uuid, study: study.uuid, action: i, trigger },
          { dedupeKey: `route:${rule.uuid}:${study.uuid}:${i}` },
        );
      }
    }
    this.deps.jobs.kick();
  }

  /** Is the study one the rule looks at: in its group, or delivered by its DICOM sender? */
  private async targets(rule: RoutingRuleRow, study: StudyRow): Promise<boolean> {
    if (!rule.for_type || !rule.for_id) return true;
    if (rule.for_type === 'group') {
      const group = await this.deps.accounts.findGroup(rule.for_id);
      return group?.namespace_id === study.namespace_id;
    }
    const node = await this.deps.nodes.find(rule.for_id);
    return !!node && node.account_id === study.account_id && node.ae_title === study.source_ae_title;
  }

  /** One action of one rule on one study (the route.action job, route-jobs.ts). */
  async runAction(p: RouteActionRun): Promise<void> {
    const rule = await this.deps.rules.find(p.rule);
    const study = await this.deps.studies.findByUuid(p.study);
    // A rule deleted, or a study gone, since the action was queued: nothing to do.
    if (!rule || !study || study.deleted !== null) return;
    const action = presentRule(rule).actions[p.action];
    if (!action) return;
    const actions = this.actions!;
    const byId = p.by ?? rule.created_by;
    const by = await this.deps.users.findByUuid(byId);
    const detail = { route_id: rule.uuid, route_name: rule.name, trigger: p.trigger };
    let outcome: Record<string, unknown>;
    try {
      outcome = await this.perform(
        action,
        study,
        { uuid: byId, name: by?.name ?? rule.name },
        detail,
        actions,
      );
    } catch (error) {
      // A refusal (a group, destination or webhook gone, a study already there) will not change on retry.
      // (onFailed records the failure in the study's history.)
      if (error instanceof DomainError) throw new PermanentJobError(describe(error));
      throw error;
    }
    await this.record(rule, study, p, 'SUCCESS', outcome);
  }

  private async perform(
    action: RouteAction,
    study: StudyRow,
    by: { uuid: string; name: string },
    detail: Record<string, unknown>,
    actions: RoutingActions,
  ): Promise<Record<string, unknown>> {
    switch (action.type) {
      case 'share_group': {
        const copy = await actions.shares.shareByRule(
          study,
          action.group_id,
          by,
          detail,
          action.anonymization_id,
        );
        return { group_id: action.group_id, copy_uuid: copy, already: copy === null };
      }
      case 'push': {
        const push = await actions.pushes.pushByRule(study, action.destination_id, by.uuid, detail);
        return { destination_id: action.destination_id, push: push.uuid };
      }
      case 'webhook': {
        const hook = await actions.webhooks.findForAccount(study.account_id, action.webhook_id);
        if (!hook) throw notFound('webhook');
        const delivery = await actions.webhooks.queue(hook, 'study_routed', study, detail);
        return { webhook_id: hook.uuid, delivery };
      }
      case 'share_code': {
        const send = await actions.sends.sendByRule(
          study,
          { method: 'share_code', code: action.share_code },
          by.uuid,
          detail,
        );
        return { share_code: action.share_code, send: send.send_id };
      }
      case 'connection': {
        const send = await actions.sends.sendByRule(
          study,
          { method: 'account', connection: action.connection_id },
          by.uuid,
          detail,
        );
        return { connection_id: action.connection_id, send: send.send_id };
      }
    }
  }

  /** The run in the study's history: which rule, which action, why it ran and how it ended. */
  private async record(
    rule: RoutingRuleRow,
    study: StudyRow,
    p: { action: number; trigger: RouteEvent; by?: string | undefined },
    outcome: 'SUCCESS' | 'FAILURE',
    detail: Record<string, unknown>,
  ): Promise<void> {
    const action = presentRule(rule).actions[p.action];
    await this.deps.audit.record(
      studyEvent(
        { userId: p.by ?? null },
        study,
        'ROUTE',
        {
          route_id: rule.uuid,
          route_name: rule.name,
          trigger: p.trigger,
          action: action?.type ?? null,
          ...detail,
        },
        outcome,
      ),
    );
  }
}

/** A refusal as one line for the history: its type, what it is about and why. */
function describe(error: DomainError): string {
  const why =
    error.data === null ? '' : typeof error.data === 'string' ? error.data : JSON.stringify(error.data);
  return why ? `${error.message} (${why})` : error.message;
}
