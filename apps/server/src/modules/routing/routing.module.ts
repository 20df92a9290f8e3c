import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Kernel } from '../../kernel/kernel.js';
import { OutboundGuard } from '../../security/outbound-guard.js';
import { routeActionJob, routeEvaluateJob } from './route-jobs.js';
import { RoutingEngine } from './routing-engine.js';
import type { RoutingActions } from './routing-engine.js';
import { RoutingRuleService } from './routing-rule.service.js';
import { RoutingRulesRepository } from './routing-rules.repository.js';
import { routingRoutes } from './routing.routes.js';
import { webhookDeliveryJob } from './webhook-job.js';
import { webhookRoutes } from './webhook.routes.js';
import { WebhookService } from './webhook.service.js';
import { WebhooksRepository } from './webhooks.repository.js';

/** What routing acts through (its rules' actions) and checks rules against: pacs's and sharing's. */
export interface RoutingNeeds extends Omit<RoutingActions, 'webhooks'> {
  destinations: RuleDeps['destinations'];
  sendsRepository: RuleDeps['sends'];
  profiles?: RuleDeps['profiles'];
}

type RuleDeps = ConstructorParameters<typeof RoutingRuleService>[0];

/**
 * Routing (README.md): rules that run on what arrives, is shared or sent in, and webhooks. It
 * listens to the kernel's study events, so the modules that cause them never import it.
 */
export function createRoutingModule(kernel: Kernel, needs: RoutingNeeds) {
  const { audit, config, log, jobs } = kernel;
  const { studies, accounts, dicomNodes, users } = kernel.repos;
  const k = kernel.db.kysely;
  const repos = { routingRules: new RoutingRulesRepository(k), webhooks: new WebhooksRepository(k) };
  const routing = new RoutingEngine({
    rules: repos.routingRules,
    studies,
    accounts,
    nodes: dicomNodes,
    users,
    jobs,
    audit,
    quietMs: config.routingQuietMs,
    log,
  });
  const webhooks = new WebhookService({
    webhooks: repos.webhooks,
    jobs,
    audit,
    guard: new OutboundGuard(config.webhookAllowedHosts),
    retryMs: config.webhookRetryMs,
    deadlineMs: config.webhookDeadlineMs,
    studies,
    log,
  });
  routing.connect({ shares: needs.shares, pushes: needs.pushes, sends: needs.sends, webhooks });
  kernel.events.listen({
    stored: (event) => routing.noteStored(event),
    shared: (copyUuid) => routing.noteShared(copyUuid),
    happened: (event, studyUuid, detail) => webhooks.emitAbout(event, studyUuid, detail),
  });
  return {
    repos,
    services: {
      routing,
      webhooks,
      routingRules: new RoutingRuleService({
        rules: repos.routingRules,
        accounts,
        nodes: dicomNodes,
        destinations: needs.destinations,
        webhooks: repos.webhooks,
        sends: needs.sendsRepository,
        audit,
        profiles: needs.profiles,
      }),
    },
    jobs: [routeEvaluateJob(routing), routeActionJob(routing), webhookDeliveryJob(webhooks)],
  };
}

/** The module's routes, registered by http/app.ts. */
export function registerRoutingRoutes(ctx: AppContext, app: FastifyInstance): void {
  routingRoutes(ctx, app);
  webhookRoutes(ctx, app);
}
