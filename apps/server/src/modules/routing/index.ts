/** The routing module's one door: what the rest of the server may use of it (see README.md). */
export { RoutingEngine } from './routing-engine.js';
export { RoutingRuleService } from './routing-rule.service.js';
export { RoutingRulesRepository } from './routing-rules.repository.js';
export { routingRoutes } from './routing.routes.js';
export { webhookRoutes } from './webhook.routes.js';
export { WebhookService } from './webhook.service.js';
export { WebhooksRepository } from './webhooks.repository.js';
export { userPatternProblem, userPatternReplace, UserPatternError } from './user-pattern.js';
export { createRoutingModule, registerRoutingRoutes } from './routing.module.js';
