import { DomainError } from '../domain/errors.js';
import type { AuthFailuresRepository } from '../repositories/auth-failures.repository.js';

export interface RateLimits {
  windowMs: number;
  /** Wrong passwords for one login from one address before it backs off. */
  perLogin: number;
  /** Wrong passwords from one address, whatever the login, before it is refused for the window. */
  perAddress: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = { windowMs: 15 * 60_000, perLogin: 5, perAddress: 30 };

/** The first wait after `perLogin` failures; each further failure doubles it, up to the window. */
export const FIRST_BACKOFF_MS = 30_000;

/**
 * Sign-in failures are counted per (login, client address), not per login: five wrong passwords
 * typed by a stranger must not lock a clinician out of their own account from their own
 * workstation. Past `perLogin` failures within the window that pair backs off (30 s, then 1, 2, 4…
 * minutes after its latest failure, at most the window); an address is refused outright after
 * `perAddress` failures over any logins. Guessing one password from many addresses stays slow: each
 * try costs an scrypt hash and each address only a few tries.
 */
export class LoginThrottle {
  constructor(
    private readonly failures: AuthFailuresRepository,
    readonly limits: RateLimits = DEFAULT_RATE_LIMITS,
  ) {}

  static keys(email: string, ip: string): { pair: string; address: string } {
    return { pair: `login:${email.trim().toLowerCase()}|${ip}`, address: `ip:${ip}` };
  }

  /** Throws RATE_LIMITED while the pair backs off or the address is over its limit. */
  async refuseIfThrottled(email: string, ip: string, now: number): Promise<void> {
    const { pair, address } = LoginThrottle.keys(email, ip);
    const since = now - this.limits.windowMs;
    const [byPair, byAddress] = await Promise.all([
      this.failures.recentOf(pair, since),
      this.failures.countSince(address, since),
    ]);
    if (byAddress >= this.limits.perAddress) throw rateLimitedLogin();
    if (byPair.count >= this.limits.perLogin) {
      const wait = Math.min(
        this.limits.windowMs,
        FIRST_BACKOFF_MS * 2 ** (byPair.count - this.limits.perLogin),
      );
      if (now < byPair.latest + wait) throw rateLimitedLogin();
    }
  }

  recordFailure(email: string, ip: string, now: number): Promise<void> {
    const { pair, address } = LoginThrottle.keys(email, ip);
    return this.failures.record([pair, address], now);
  }

  clear(email: string, ip: string): Promise<void> {
    return this.failures.clear(LoginThrottle.keys(email, ip).pair);
  }
}

export const rateLimitedLogin = () =>
  new DomainError('RATE_LIMITED', 'Too many failed sign-in attempts; try again later.');
