import type { PurgeService } from '../services/purge.service.js';

export const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Runs the purge every interval in this process. Several app processes may each run it: removal
 * is idempotent (a study already gone is simply not found again). Runs never overlap, and the
 * timer does not keep the process alive; stop() waits for a run in progress.
 */
export function startPurgeTimer(
  purge: PurgeService,
  log: (line: string) => void,
  intervalMs = PURGE_INTERVAL_MS,
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = purge
      .purge()
      .then(
        (r) => {
          if (r.studies) log(`Purged ${r.studies} deleted studies, ${r.files} files`);
        },
        (error: unknown) => log(`Purge failed: ${String(error)}`),
      )
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
