import { DomainError } from '../domain/errors.js';
import type { AuthFailuresRepository } from '../repositories/auth-failures.repository.js';

export const rateLimited = () => new DomainError('RATE_LIMITED', 'Too many attempts; try again later.');

/** An attempt allowed to go on, counted as a failure until `succeeded` takes the count back. */
export interface ReservedAttempt {
  succeeded(): Promise<void>;
}

/**
 * Counts failed attempts per key (a link, a send, a client address) in the shared failure table,
 * so every process sees the same counts, and refuses once a key reached its limit within the
 * window. Used by the public pages reached by a token: request links and e-mailed sends.
 */
export class AttemptLimiter {
  constructor(
    private readonly failures: AuthFailuresRepository,
    private readonly windowMs: number,
  ) {}

  /** Throws RATE_LIMITED when `key` holds `limit` or more failures within the window before `now`. */
  async refuseIfOver(key: string, limit: number, now: number): Promise<void> {
    if ((await this.failures.countSince(key, now - this.windowMs)) >= limit) throw rateLimited();
  }

  /**
   * Counts an attempt on `key` (and on `alsoKeys`) as a failure before it is checked, or throws
   * RATE_LIMITED, counting nothing, when `key` already holds `limit` failures within the window.
   * The check and the count are one exclusive step, so attempts sent together cannot all pass a
   * check none of them has counted yet. A right attempt calls `succeeded` to take its count back.
   */
  async reserve(key: string, limit: number, now: number, alsoKeys: string[] = []): Promise<ReservedAttempt> {
    const ids = await this.failures.exclusive(key, async (failures) => {
      if ((await failures.countSince(key, now - this.windowMs)) >= limit) throw rateLimited();
      return failures.record([key, ...alsoKeys], now);
    });
    return { succeeded: () => this.failures.remove(ids) };
  }

  record(keys: string[], now: number): Promise<number[]> {
    return this.failures.record(keys, now);
  }
}
