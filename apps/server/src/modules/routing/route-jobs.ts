import { ROUTE_ACTION_JOB, ROUTE_EVALUATE_JOB } from '../../jobs/job-kinds.js';
import type { JobHandler } from '../../jobs/job-runner.js';
import type { RouteActionRun, RoutingEngine, Trigger } from './routing-engine.js';

/** Reads the account's rules for a study once it is quiet and queues the matching rules' actions. */
export function routeEvaluateJob(
  engine: Pick<RoutingEngine, 'evaluate'>,
): JobHandler<{ study: string; trigger: Trigger }> {
  return {
    job: ROUTE_EVALUATE_JOB,
    concurrency: 2,
    run: ({ study, trigger }) => engine.evaluate(study, trigger),
  };
}

/** Runs one action of one rule on one study; one that runs out of attempts is recorded as failed. */
export function routeActionJob(
  engine: Pick<RoutingEngine, 'runAction' | 'giveUpAction'>,
): JobHandler<RouteActionRun> {
  return {
    job: ROUTE_ACTION_JOB,
    maxAttempts: 5,
    concurrency: 2,
    run: (run) => engine.runAction(run),
    onFailed: (run, error) => engine.giveUpAction(run, error),
  };
}
