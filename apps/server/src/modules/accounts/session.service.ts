import { DomainError } from '../../domain/errors.js';
import type { AuthFailuresRepository } from '../../repositories/auth-failures.repository.js';
import type { SessionRow, SessionsRepository } from '../../repositories/sessions.repository.js';
import type { UserRow, UsersRepository } from '../../repositories/users.repository.js';
import type { AuditService } from '../../audit/audit.service.js';
import type { RateLimits } from './login-throttle.js';
import { LoginThrottle } from './login-throttle.js';
import { dummyPasswordHash, verifyPassword } from '../../security/passwords.js';
import { hashToken, newSecretToken } from '../../security/tokens.js';

export type { RateLimits } from './login-throttle.js';

/**
 * Refreshing last_seen on every call would turn each read into a write, so the idle expiry slides
 * at most this often: once a minute, or a sixtieth of the idle time when that is shorter. A session
 * in use then expires at most that much early (one second at SESSION_IDLE_MINUTES=1, where a
 * fixed minute would let a session in use expire).
 */
export function touchIntervalMs(idleSeconds: number): number {
  return Math.min(60_000, (idleSeconds * 1000) / 60);
}

export interface SessionDeps {
  users: UsersRepository;
  sessions: SessionsRepository;
  failures: AuthFailuresRepository;
  audit: AuditService;
  idleSeconds: number;
  rateLimits?: RateLimits;
  now?: () => number;
}

/** Sign-in, session validation with idle expiry, sign-out. */
export class SessionService {
  private readonly now: () => number;
  private readonly throttle: LoginThrottle;

  constructor(private readonly deps: SessionDeps) {
    this.now = deps.now ?? Date.now;
    this.throttle = new LoginThrottle(deps.failures, deps.rateLimits);
  }

  async login(login: string, password: string, ip: string): Promise<{ sid: string; user: UserRow }> {
    const email = login.trim().toLowerCase();
    const now = this.now();
    let user: UserRow | undefined;
    let ok: boolean;
    try {
      // Counted before the hash: guesses sent together cannot all pass the limit.
      ok = await this.throttle.attempt(email, ip, now, async () => {
        user = await this.deps.users.findByEmail(email);
        // Hash even for an unknown login so both paths take the same time.
        const right = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash()));
        return right && user?.status === 'ACTIVE';
      });
    } catch (error) {
      if (!(error instanceof DomainError) || error.errorType !== 'RATE_LIMITED') throw error;
      await this.deps.audit.record({
        userId: null,
        action: 'LOGIN',
        objectType: 'session',
        outcome: 'FAILURE',
        detail: { login: email, reason: 'rate_limited' },
        ip,
      });
      throw error;
    }
    if (!ok || !user) {
      await this.deps.audit.record({
        userId: user?.uuid ?? null,
        action: 'LOGIN',
        objectType: 'session',
        outcome: 'FAILURE',
        detail: { login: email },
        ip,
      });
      throw new DomainError('BAD_PASSWORD');
    }
    const sid = newSecretToken();
    await this.deps.sessions.insert({
      sid_hash: hashToken(sid),
      user_id: user.uuid,
      created: now,
      last_seen: now,
      expires: now + this.deps.idleSeconds * 1000,
      ip,
    });
    await this.deps.users.touchLogin(user.uuid, now);
    await this.deps.audit.record({ userId: user.uuid, action: 'LOGIN', objectType: 'session', ip });
    return { sid, user };
  }

  /**
   * The live session of a sid (by its hash, `hashToken`), sliding its idle expiry; undefined when
   * unknown or expired.
   */
  async resolveHash(sidHash: string): Promise<{ session: SessionRow; user: UserRow } | undefined> {
    const found = await this.deps.sessions.findWithUser(sidHash);
    if (!found) return undefined;
    const { session, user } = found;
    const now = this.now();
    if (session.expires <= now) {
      await this.deps.sessions.delete(sidHash);
      return undefined;
    }
    if (user.status !== 'ACTIVE') return undefined;
    if (now - session.last_seen >= touchIntervalMs(this.deps.idleSeconds)) {
      const expires = now + this.deps.idleSeconds * 1000;
      await this.deps.sessions.touch(sidHash, now, expires);
      session.last_seen = now;
      session.expires = expires;
    }
    return { session, user };
  }

  async ttlSeconds(sid: string): Promise<number> {
    const session = await this.deps.sessions.find(hashToken(sid));
    const now = this.now();
    if (!session || session.expires <= now) throw new DomainError('EXPIRED');
    return Math.floor((session.expires - now) / 1000);
  }

  async logout(sidHash: string, userId: string, ip: string): Promise<void> {
    await this.deps.sessions.delete(sidHash);
    await this.deps.audit.record({ userId, action: 'LOGOUT', objectType: 'session', ip });
  }
}
