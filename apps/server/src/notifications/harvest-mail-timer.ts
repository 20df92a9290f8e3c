import type { HarvestNotifier } from './harvest-notifier.js';
import { startPeriodic, type PeriodicTask } from '../jobs/periodic.js';

/** Looks for quiet studies whose harvest mail is due, every interval. */
export function startHarvestMailTimer(
  notifier: HarvestNotifier,
  log: (line: string) => void,
  intervalMs: number,
): PeriodicTask {
  return startPeriodic('Harvest mail run', () => notifier.flushDue().then(() => undefined), log, intervalMs);
}

/** Checks often enough that a mail leaves soon after its study went quiet. */
export function harvestMailInterval(quietMs: number): number {
  return Math.max(100, Math.min(5_000, Math.floor(quietMs / 2)));
}
