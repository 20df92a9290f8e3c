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

/** An attempt allowed to check its password, counted as a failure until it turns out right. */
export interface LoginAttempt {
  /** The password was right: the attempt is not a failure, and the login's failures from that address are cleared. */
  succeeded(): Promise<void>;
}

/**
 * Sign-in failures are counted per (login, client address), not per login: five wrong passwords
 * typed by a stranger must not lock a clinician out of their own account from their own
 * workstation. Past `perLogin` failures within the window that pair backs off (30 s, then 1, 2, 4…
 * minutes after its latest failure, at most the window); an address is refused outright after
 * `perAddress` failures over any logins. Guessing one password from many addresses stays slow: each
 * try costs an scrypt hash and each address only a few tries.
 *
 * An attempt is counted before its password is hashed, in the same exclusive step as the check
 * (`reserve`), so guesses sent at once cannot all pass a check none of them has counted yet: the
 * limits hold however many arrive together. A right password then refunds its own count.
 */
export class LoginThrottle {
  constructor(
    private readonly failures: AuthFailuresRepository,
    readonly limits: RateLimits = DEFAULT_RATE_LIMITS,
  ) {}

  static keys(email: string, ip: string): { pair: string; address: string } {
    return { pair: `login:${email.trim().toLowerCase()}|${ip}`, address: `ip:${ip}` };
  }

  /**
   * Counts an attempt of `email` from `ip` as a failure now, or throws RATE_LIMITED (counting
   * nothing) while the pair backs off or the address is over its limit. Every key of one address
   * is counted under one lock, so the check and the count are one step for that address.
   */
  async reserve(email: string, ip: string, now: number): Promise<LoginAttempt> {
    const { pair, address } = LoginThrottle.keys(email, ip);
    const since = now - this.limits.windowMs;
    const ids = await this.failures.exclusive(address, async (failures) => {
      const byAddress = await failures.countSince(address, since);
      if (byAddress >= this.limits.perAddress) throw rateLimitedLogin();
      const byPair = await failures.recentOf(pair, since);
      if (byPair.count >= this.limits.perLogin) {
        const wait = Math.min(
          this.limits.windowMs,
          FIRST_BACKOFF_MS * 2 ** (byPair.count - this.limits.perLogin),
        );
        if (now < byPair.latest + wait) throw rateLimitedLogin();
      }
      return failures.record([pair, address], now);
    });
    return {
      succeeded: async () => {
        await this.failures.remove(ids);
        await this.failures.clear(pair);
      },
    };
  }
}

export const rateLimitedLogin = () =>
  new DomainError('RATE_LIMITED', 'Too many failed sign-in attempts; try again later.');
