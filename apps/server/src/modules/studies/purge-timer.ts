import type { PurgeService } from './purge.service.js';
import { startPeriodic, type PeriodicTask } from '../../jobs/periodic.js';

export const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** Removes deleted studies past their retention every interval (removal is idempotent). */
export function startPurgeTimer(
  purge: PurgeService,
  log: (line: string) => void,
  intervalMs = PURGE_INTERVAL_MS,
): PeriodicTask {
  return startPeriodic(
    'Purge',
    async () => {
      const r = await purge.purge();
      if (r.studies) log(`Purged ${r.studies} deleted studies, ${r.files} files`);
    },
    log,
    intervalMs,
  );
}
