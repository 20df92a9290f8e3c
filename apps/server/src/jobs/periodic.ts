/** A periodic task of this process; stop() waits for a run in progress. */
export interface PeriodicTask {
  stop(): Promise<void>;
}

/**
 * Runs `run` every interval. Runs never overlap (a tick while one is in progress is skipped), a
 * failed run is logged and the next tick tries again, and the timer does not keep the process
 * alive. The housekeeping jobs built on it are idempotent across processes, so several app
 * processes may each run them.
 */
export function startPeriodic(
  name: string,
  run: () => Promise<void>,
  log: (line: string) => void,
  intervalMs: number,
): PeriodicTask {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = run()
      .catch((error: unknown) => log(`${name} failed: ${String(error)}`))
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
