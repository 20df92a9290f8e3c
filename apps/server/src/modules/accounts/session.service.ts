import { DomainError } from '../../domain/errors.js';
import type { AuthFailuresRepository } from '../../repositories/auth-failures.repository.js';
import type { SessionRow, SessionsRepository } from '../../repositories/sessions.repository.js';
import type { UserRow, UsersRepository } from '../../repositories/users.repository.js';
import { sessionEvent, type AuditService } from '../../audit/audit.service.js';
import type { RateLimits } from './login-throttle.js';
import { LoginThrottle } from './login-throttle.js';
import type { CodeKind, TwoFactorService } from './two-factor.service.js';
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
  /** Two-factor codes; without it, a right password alone signs in. */
  twoFactor?: TwoFactorService;
  /**
   * Whether single sign-on stops this user signing in with a password (an account of theirs
   * requires it and they are not its break-glass admin): what the refusal names.
   */
  ssoRequired?: (userId: string) => Promise<{ account_id: string; provider: string } | null>;
  now?: () => number;
}

/** What a right password still needs: a code of an enabled secret, or a first enrolment. */
type CodeDue = { kind: 'code' } | { kind: 'enrol' } | null;

/** Sign-in, session validation with idle expiry, sign-out. */
export class SessionService {
  private readonly now: () => number;
  private readonly throttle: LoginThrottle;

  constructor(private readonly deps: SessionDeps) {
    this.now = deps.now ?? Date.now;
    this.throttle = new LoginThrottle(deps.failures, deps.rateLimits);
  }

  /**
   * Signs in with a password and, when the user has two-factor codes on (or an account of theirs
   * requires them), a code: without `otp` a right password answers MFA_REQUIRED (or
   * MFA_ENROLMENT_REQUIRED with a secret to scan); a wrong code answers BAD_OTP and counts as a
   * failed sign-in. `recoveryCodes` is set when this sign-in enabled codes.
   */
  async login(
    login: string,
    password: string,
    ip: string,
    otp?: string,
  ): Promise<{ sid: string; user: UserRow; recoveryCodes?: string[] }> {
    const email = login.trim().toLowerCase();
    // Every refused sign-in is one event naming the login typed (and why, when it was not the password).
    const refused = (userId: string | null, why: { reason?: string } = {}, accountId?: string) =>
      this.deps.audit.record(
        sessionEvent({ userId, ip }, 'LOGIN', {
          accountId,
          outcome: 'FAILURE',
          detail: { login: email, ...why },
        }),
      );
    const now = this.now();
    let user: UserRow | undefined;
    let ok: boolean;
    let due: CodeDue = null;
    let badCode = false;
    let codeKind: CodeKind | undefined;
    let recoveryCodes: string[] | undefined;
    let sso: { account_id: string; provider: string } | null = null;
    try {
      // Counted before the hash: guesses sent together cannot all pass the limit.
      ok = await this.throttle.attempt(email, ip, now, async () => {
        user = await this.deps.users.findByEmail(email);
        // Hash even for an unknown login so both paths take the same time.
        const right = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash()));
        if (!right || !user || user.status !== 'ACTIVE') return false;
        // Only a right password learns that the account signs in through its provider.
        sso = (await this.deps.ssoRequired?.(user.uuid)) ?? null;
        if (sso) return 'neutral';
        const twoFactor = this.deps.twoFactor;
        if (!twoFactor) return true;
        if (await twoFactor.isEnabled(user.uuid)) {
          if (otp === undefined) {
            due = { kind: 'code' };
            return 'neutral';
          }
          codeKind = (await twoFactor.verify(user, otp, ip)) ?? undefined;
        } else if (await twoFactor.isRequired(user.uuid)) {
          if (otp === undefined) {
            due = { kind: 'enrol' };
            return 'neutral';
          }
          recoveryCodes = (await twoFactor.enableWith(user, otp, ip)) ?? undefined;
          if (recoveryCodes) codeKind = 'totp';
        } else {
          return true;
        }
        badCode = codeKind === undefined;
        return !badCode;
      });
    } catch (error) {
      if (!(error instanceof DomainError) || error.errorType !== 'RATE_LIMITED') throw error;
      await refused(null, { reason: 'rate_limited' });
      throw error;
    }
    const ssoDue = sso as { account_id: string; provider: string } | null;
    if (user && ssoDue) {
      await refused(user.uuid, { reason: 'sso_required' }, ssoDue.account_id);
      throw new DomainError('SSO_REQUIRED', null, ssoDue);
    }
    const codeDue = due as CodeDue;
    if (user && codeDue?.kind === 'code') throw new DomainError('MFA_REQUIRED');
    if (user && codeDue?.kind === 'enrol') {
      throw new DomainError('MFA_ENROLMENT_REQUIRED', null, await this.deps.twoFactor!.startEnrolment(user));
    }
    if (user && badCode) {
      await this.deps.twoFactor!.failedCode(user, ip, 'login');
      throw new DomainError('BAD_OTP');
    }
    if (!ok || !user) {
      await refused(user?.uuid ?? null);
      throw new DomainError('BAD_PASSWORD');
    }
    const sid = await this.open(user, ip);
    await this.deps.audit.record(
      sessionEvent({ userId: user.uuid, ip }, 'LOGIN', {
        detail: codeKind ? { two_factor: codeKind } : null,
      }),
    );
    return { sid, user, ...(recoveryCodes ? { recoveryCodes } : {}) };
  }

  /**
   * A new session of a user whose sign-in was proven (a password here, a provider's ID token in
   * SsoSignInService): the same sid, idle expiry and last-login a password sign-in gives. The
   * caller audits how they signed in.
   */
  async open(user: UserRow, ip: string): Promise<string> {
    const now = this.now();
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
    return sid;
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
    await this.deps.audit.record(sessionEvent({ userId, ip }, 'LOGOUT'));
  }
}
