import { DomainError } from '../domain/errors.js';
import type { AuthFailuresRepository } from '../repositories/auth-failures.repository.js';

export const rateLimited = () => new DomainError('RATE_LIMITED', 'Too many attempts; try again later.');

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

  record(keys: string[], now: number): Promise<void> {
    return this.failures.record(keys, now);
  }
}
