import type { DestinationService } from './destination.service.js';
import { startPeriodic, type PeriodicTask } from '../../jobs/periodic.js';

/** How often due automatic C-ECHOs are looked for (the shortest c_echo_interval is 10 s). */
export const DESTINATION_ECHO_TICK_MS = 5_000;

/**
 * The automatic C-ECHO of destinations that have a c_echo_interval: each one whose last echo is
 * older than its interval is echoed, and the outcome kept as its last echo (what the admin page
 * shows). Several processes may each run it; an extra echo is harmless.
 */
export function startDestinationEchoTimer(
  destinations: DestinationService,
  log: (line: string) => void,
  intervalMs = DESTINATION_ECHO_TICK_MS,
): PeriodicTask {
  return startPeriodic('Destination echo', () => destinations.echoDue(), log, intervalMs);
}
