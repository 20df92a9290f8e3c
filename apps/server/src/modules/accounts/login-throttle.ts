import { DomainError } from '../../domain/errors.js';
import type { AuthFailuresRepository } from '../../repositories/auth-failures.repository.js';
import { AttemptsInFlight, MAX_IN_FLIGHT_WAIT_MS } from '../../security/attempts-in-flight.js';

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
 *
 * An attempt is counted before its password is hashed, in the same exclusive step as the check
 * (`attempt`), so guesses sent at once cannot all pass a check none of them has counted yet: the
 * limits hold however many arrive together. A right password then refunds its own count.
 */
export class LoginThrottle {
  private readonly inFlight = new AttemptsInFlight();

  constructor(
    private readonly failures: AuthFailuresRepository,
    readonly limits: RateLimits = DEFAULT_RATE_LIMITS,
  ) {}

  static keys(email: string, ip: string): { pair: string; address: string } {
    return { pair: `login:${email.trim().toLowerCase()}|${ip}`, address: `ip:${ip}` };
  }

  /**
   * Runs `check` (the password's hash) as one attempt of `email` from `ip` and answers its result.
   * The attempt is counted as a failure before `check` runs, in one exclusive step with the limits
   * (every key of one address under one lock); over a limit it throws RATE_LIMITED and `check`
   * never runs, unless attempts of this process from that address are still being checked: then it
   * waits for them (AttemptsInFlight) and looks again. A `check` answering true gives its count
   * back and clears the login's failures from that address; one answering 'neutral' only gives its
   * count back (answered as true).
   */
  async attempt(
    email: string,
    ip: string,
    now: number,
    check: () => Promise<boolean | 'neutral'>,
  ): Promise<boolean> {
    const { pair, address } = LoginThrottle.keys(email, ip);
    const deadline = Date.now() + MAX_IN_FLIGHT_WAIT_MS;
    for (;;) {
      let ids: number[];
      try {
        ids = await this.reserve(pair, address, now);
      } catch (error) {
        const pending = this.inFlight.next(address);
        if (!pending || Date.now() > deadline) throw error;
        await pending;
        continue;
      }
      return this.inFlight.run(address, async () => {
        const ok = await check();
        // 'neutral' (a right password whose two-factor code is still due) gives back its own count
        // but clears nothing: asking again without a code must not wipe the wrong codes counted.
        if (ok) await this.failures.remove(ids);
        if (ok === true) await this.failures.clear(pair);
        return ok !== false;
      });
    }
  }

  /** Records the attempt's failure rows and answers their ids, or throws RATE_LIMITED. */
  private reserve(pair: string, address: string, now: number): Promise<number[]> {
    const since = now - this.limits.windowMs;
    return this.failures.exclusive(address, async (failures) => {
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
  }
}

export const rateLimitedLogin = () =>
  new DomainError('RATE_LIMITED', 'Too many failed sign-in attempts; try again later.');
