import { DomainError } from '../domain/errors.js';
import type { AuthFailuresRepository } from '../repositories/auth-failures.repository.js';
import type { SessionRow, SessionsRepository } from '../repositories/sessions.repository.js';
import type { UserRow, UsersRepository } from '../repositories/users.repository.js';
import type { AuditService } from './audit.service.js';
import { dummyPasswordHash, verifyPassword } from './passwords.js';
import { hashToken, newSecretToken } from './tokens.js';

export interface RateLimits {
  windowMs: number;
  perLogin: number;
  perAddress: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = { windowMs: 15 * 60_000, perLogin: 5, perAddress: 30 };

/** Refreshing last_seen on every call would turn each read into a write; once a minute is enough. */
const TOUCH_INTERVAL_MS = 60_000;

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
  private readonly limits: RateLimits;

  constructor(private readonly deps: SessionDeps) {
    this.now = deps.now ?? Date.now;
    this.limits = deps.rateLimits ?? DEFAULT_RATE_LIMITS;
  }

  async login(login: string, password: string, ip: string): Promise<{ sid: string; user: UserRow }> {
    const email = login.trim().toLowerCase();
    const now = this.now();
    const since = now - this.limits.windowMs;
    const loginKey = `login:${email}`;
    const addressKey = `ip:${ip}`;
    const [byLogin, byAddress] = await Promise.all([
      this.deps.failures.countSince(loginKey, since),
      this.deps.failures.countSince(addressKey, since),
    ]);
    if (byLogin >= this.limits.perLogin || byAddress >= this.limits.perAddress) {
      await this.deps.audit.record({
        userId: null,
        action: 'LOGIN',
        objectType: 'session',
        outcome: 'FAILURE',
        detail: { login: email, reason: 'rate_limited' },
        ip,
      });
      throw new DomainError('RATE_LIMITED', 'Too many failed sign-in attempts; try again later.');
    }
    const user = await this.deps.users.findByEmail(email);
    // Hash even for an unknown login so both paths take the same time.
    const ok = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash()));
    if (!user || !ok || user.status !== 'ACTIVE') {
      await this.deps.failures.record([loginKey, addressKey], now);
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
    await this.deps.failures.clear(loginKey);
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

  /** The live session of a sid, sliding its idle expiry; undefined when unknown or expired. */
  async resolve(sid: string): Promise<{ session: SessionRow; user: UserRow } | undefined> {
    const sidHash = hashToken(sid);
    const session = await this.deps.sessions.find(sidHash);
    if (!session) return undefined;
    const now = this.now();
    if (session.expires <= now) {
      await this.deps.sessions.delete(sidHash);
      return undefined;
    }
    const user = await this.deps.users.findByUuid(session.user_id);
    if (!user || user.status !== 'ACTIVE') return undefined;
    if (now - session.last_seen >= TOUCH_INTERVAL_MS) {
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
