import type { HarvestNotifier } from '../notifications/harvest-notifier.js';

/**
 * Looks for quiet studies whose harvest mail is due, every interval. Like the purge timer it never
 * overlaps itself, does not keep the process alive, and stop() waits for a run in progress.
 */
export function startHarvestMailTimer(
  notifier: HarvestNotifier,
  log: (line: string) => void,
  intervalMs: number,
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = notifier
      .flushDue()
      .then(
        () => undefined,
        (error: unknown) => log(`Harvest mail run failed: ${String(error)}`),
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

/** Checks often enough that a mail leaves soon after its study went quiet. */
export function harvestMailInterval(quietMs: number): number {
  return Math.max(100, Math.min(5_000, Math.floor(quietMs / 2)));
}
