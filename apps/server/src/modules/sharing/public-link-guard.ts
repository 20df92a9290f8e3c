import { DomainError } from '../../domain/errors.js';
import type { AuthFailuresRepository } from '../../repositories/auth-failures.repository.js';
import { AttemptLimiter } from './attempt-limiter.js';
import { hashToken, newSecretToken } from '../../security/tokens.js';

/** Request links and sends alike: wrong passwords or codes per link, guesses per address. */
export interface LinkRateLimits {
  windowMs: number;
  /** Wrong passwords (codes) per link within the window before it refuses every attempt. */
  perLink: number;
  /** Unknown tokens and wrong passwords per client address within the window. */
  perAddress: number;
}

export const DEFAULT_LINK_LIMITS: LinkRateLimits = { windowMs: 15 * 60_000, perLink: 5, perAddress: 30 };
export const GRANT_TTL_MS = 60 * 60_000;

/**
 * Unknown, expired, revoked and used-up links (request links and e-mailed sends alike) all get this
 * one answer, so nothing leaks.
 */
export const noLink = () => new DomainError('NO_LINK_ERROR');

/** A grant as stored: its hash, when it was given, until when, to which address. */
export interface GrantToStore {
  grant_hash: string;
  created: number;
  expires: number;
  ip: string;
}

export interface PublicLinkGuardDeps {
  failures: AuthFailuresRepository;
  limits?: LinkRateLimits;
  now?: () => number;
}

/**
 * What request links and e-mailed sends share as links reached without an account: the clock, the
 * rate limits and the failure counts behind them (the sign-in failure table, so every process sees
 * the same counts), the rule for guessed tokens, and the short-lived grant an opened link yields.
 */
export class PublicLinkGuard {
  readonly now: () => number;
  readonly limits: LinkRateLimits;
  readonly attempts: AttemptLimiter;

  constructor(deps: PublicLinkGuardDeps) {
    this.now = deps.now ?? Date.now;
    this.limits = deps.limits ?? DEFAULT_LINK_LIMITS;
    this.attempts = new AttemptLimiter(deps.failures, this.limits.windowMs);
  }

  /**
   * The usable link behind a token, as `usable` makes it of what `find` found by the token's hash.
   * An address over its guesses is refused first. Only guesses count against the address: an
   * unknown token does, a real link that ran out does not. Every refusal is the same `noLink()`.
   */
  async open<Found, Usable>(
    token: string,
    addressKey: string,
    find: (tokenHash: string) => Promise<Found | undefined>,
    usable: (found: Found, now: number) => Usable | undefined | Promise<Usable | undefined>,
  ): Promise<Usable> {
    const now = this.now();
    await this.attempts.refuseIfOver(addressKey, this.limits.perAddress, now);
    const found = token ? await find(hashToken(token)) : undefined;
    const link = found === undefined ? undefined : await usable(found, now);
    if (link === undefined) {
      if (found === undefined) await this.attempts.record([addressKey], now);
      throw noLink();
    }
    return link;
  }

  /**
   * Whether the holder of a link proves its secret (a password, a mailed code). Counted before
   * checking: once the link is locked even the right secret waits out the window, and guesses sent
   * together cannot all pass the limit. A wrong one counts against the link and the address.
   */
  proves(linkKey: string, addressKey: string, now: number, check: () => Promise<boolean>): Promise<boolean> {
    return this.attempts.attempt(linkKey, this.limits.perLink, now, [addressKey], check);
  }

  /**
   * A new grant lasting GRANT_TTL_MS, never past the link's own expiry, stored (hashed) by `store`
   * with the address it was given to; the grant itself goes only to the caller.
   */
  async issueGrant(
    now: number,
    linkExpires: number,
    ip: string,
    store: (row: GrantToStore) => Promise<unknown>,
  ): Promise<{ grant: string; expires: number }> {
    const grant = newSecretToken();
    const expires = Math.min(now + GRANT_TTL_MS, linkExpires);
    await store({ grant_hash: hashToken(grant), created: now, expires, ip });
    return { grant, expires };
  }
}
