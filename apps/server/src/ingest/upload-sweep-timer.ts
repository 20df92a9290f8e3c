import type { UploadSessionService } from './upload-session.service.js';
import { startPeriodic, type PeriodicTask } from '../jobs/periodic.js';

export const UPLOAD_SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/** Removes expired resumable-upload sessions and orphan temp files every interval. */
export function startUploadSweepTimer(
  sessions: UploadSessionService,
  log: (line: string) => void,
  intervalMs = UPLOAD_SWEEP_INTERVAL_MS,
): PeriodicTask {
  return startPeriodic(
    'Upload sweep',
    async () => {
      const r = await sessions.sweep();
      if (r.sessions || r.orphans)
        log(`Removed ${r.sessions} expired uploads, ${r.orphans} orphan temp files`);
    },
    log,
    intervalMs,
  );
}
