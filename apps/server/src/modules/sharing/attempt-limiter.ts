import { DomainError } from '../../domain/errors.js';
import type { AuthFailuresRepository } from '../../repositories/auth-failures.repository.js';
import { AttemptsInFlight, MAX_IN_FLIGHT_WAIT_MS } from '../../security/attempts-in-flight.js';

export const rateLimited = () => new DomainError('RATE_LIMITED', 'Too many attempts; try again later.');

/**
 * Counts failed attempts per key (a link, a send, a client address) in the shared failure table,
 * so every process sees the same counts, and refuses once a key reached its limit within the
 * window. Used by the public pages reached by a token: request links and e-mailed sends.
 */
export class AttemptLimiter {
  private readonly inFlight = new AttemptsInFlight();

  constructor(
    private readonly failures: AuthFailuresRepository,
    private readonly windowMs: number,
  ) {}

  /** Throws RATE_LIMITED when `key` holds `limit` or more failures within the window before `now`. */
  async refuseIfOver(key: string, limit: number, now: number): Promise<void> {
    if ((await this.failures.countSince(key, now - this.windowMs)) >= limit) throw rateLimited();
  }

  /**
   * Counts an attempt on `key` (and on `alsoKeys`) as a failure before anything is checked, or
   * throws RATE_LIMITED, counting nothing, when `key` already holds `limit` failures within the
   * window. The check and the count are one exclusive step, so attempts sent together cannot all
   * pass a check none of them has counted yet. Answers the rows' ids.
   */
  reserve(key: string, limit: number, now: number, alsoKeys: string[] = []): Promise<number[]> {
    return this.failures.exclusive(key, async (failures) => {
      if ((await failures.countSince(key, now - this.windowMs)) >= limit) throw rateLimited();
      return failures.record([key, ...alsoKeys], now);
    });
  }

  /**
   * Runs `check` (a password's hash, a code's comparison) as one attempt reserved on `key` and
   * answers its result; a true answer takes the count back. Over the limit only because this
   * process is still checking other attempts on `key`, it waits for them and looks again
   * (AttemptsInFlight), so right answers sent together are not refused for each other.
   */
  async attempt(
    key: string,
    limit: number,
    now: number,
    alsoKeys: string[],
    check: () => Promise<boolean>,
  ): Promise<boolean> {
    const deadline = Date.now() + MAX_IN_FLIGHT_WAIT_MS;
    for (;;) {
      let ids: number[];
      try {
        ids = await this.reserve(key, limit, now, alsoKeys);
      } catch (error) {
        const pending = this.inFlight.next(key);
        if (!pending || Date.now() > deadline) throw error;
        await pending;
        continue;
      }
      return this.inFlight.run(key, async () => {
        const ok = await check();
        if (ok) await this.failures.remove(ids);
        return ok;
      });
    }
  }

  record(keys: string[], now: number): Promise<number[]> {
    return this.failures.record(keys, now);
  }
}
