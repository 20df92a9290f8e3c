import type { UploadSessionService } from '../ingest/upload-session.service.js';

export const UPLOAD_SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Removes expired resumable-upload sessions and their temp files every interval, like the purge
 * timer: runs never overlap, removal is idempotent across processes, and the timer does not keep
 * the process alive; stop() waits for a run in progress.
 */
export function startUploadSweepTimer(
  sessions: UploadSessionService,
  log: (line: string) => void,
  intervalMs = UPLOAD_SWEEP_INTERVAL_MS,
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = sessions
      .sweep()
      .then(
        (r) => {
          if (r.sessions || r.orphans)
            log(`Removed ${r.sessions} expired uploads, ${r.orphans} orphan temp files`);
        },
        (error: unknown) => log(`Upload sweep failed: ${String(error)}`),
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
