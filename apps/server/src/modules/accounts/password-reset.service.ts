import { isStrongPassword } from '@imaging-inbox/contract';
import { DomainError } from '../../domain/errors.js';
import type { Mailer } from '../../mail/mailer.js';
import type { AuthFailuresRepository } from '../../repositories/auth-failures.repository.js';
import type { PasswordResetsRepository } from './password-resets.repository.js';
import type { SessionsRepository } from '../../repositories/sessions.repository.js';
import type { UsersRepository } from '../../repositories/users.repository.js';
import { ownUserEvent, type AuditService } from '../../audit/audit.service.js';
import { hashPassword, verifyPassword } from '../../security/passwords.js';
import { hashToken, newSecretToken } from '../../security/tokens.js';
import { mailTexts } from '../../mail/messages/index.js';

const RESET_TTL_MS = 60 * 60_000;
/** The new password may not equal the current one nor either of the two before it. */
const REMEMBERED_PASSWORDS = 3;

/** Reset requests answered with a mail, per address asked for and per client address. */
export interface ResetLimits {
  windowMs: number;
  perEmail: number;
  perAddress: number;
}

export const DEFAULT_RESET_LIMITS: ResetLimits = { windowMs: 60 * 60_000, perEmail: 3, perAddress: 10 };

export interface PasswordResetDeps {
  users: UsersRepository;
  resets: PasswordResetsRepository;
  sessions: SessionsRepository;
  /** The shared attempt table, so every process counts the same requests. */
  failures: AuthFailuresRepository;
  mailer: Mailer;
  audit: AuditService;
  publicUrl: string;
  limits?: ResetLimits;
  now?: () => number;
}

export class PasswordResetService {
  private readonly now: () => number;
  private readonly limits: ResetLimits;
  constructor(private readonly deps: PasswordResetDeps) {
    this.now = deps.now ?? Date.now;
    this.limits = deps.limits ?? DEFAULT_RESET_LIMITS;
  }

  /**
   * Always resolves the same way, whether or not the address has a login and whether or not a
   * limit was reached: a request past the limit per e-mail or per client address sends nothing, so
   * the form can neither flood a mailbox nor tell which addresses exist.
   */
  async requestReset(email: string, ip: string): Promise<void> {
    const now = this.now();
    const mailKey = `reset-mail:${email.trim().toLowerCase()}`;
    const addressKey = `reset-ip:${ip}`;
    const since = now - this.limits.windowMs;
    const [byEmail, byAddress] = await Promise.all([
      this.deps.failures.countSince(mailKey, since),
      this.deps.failures.countSince(addressKey, since),
    ]);
    await this.deps.failures.record([mailKey, addressKey], now);
    const user = await this.deps.users.findByEmail(email);
    if (!user || user.status !== 'ACTIVE') return;
    if (byEmail >= this.limits.perEmail || byAddress >= this.limits.perAddress) {
      await this.deps.audit.record(
        ownUserEvent(user, 'PASSWORD_RESET_REQUEST', ip, {
          outcome: 'FAILURE',
          detail: { reason: 'rate_limited' },
        }),
      );
      return;
    }
    const token = newSecretToken();
    const link = `${this.deps.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
    const t = mailTexts(
      await this.deps.mailer.languages.ofUser(user, await this.deps.users.firstAccountId(user.uuid)),
    );
    await this.deps.resets.insertOnly(
      { token_hash: hashToken(token), user_id: user.uuid, expires: now + RESET_TTL_MS, used: null },
      now,
      (trx) =>
        this.deps.mailer.queue(
          {
            kind: 'password_reset',
            to: user.email,
            subject: t('passwordReset.subject'),
            text: t('passwordReset.body', { email: user.email, link }),
          },
          trx,
        ),
    );
    this.deps.mailer.kick();
    await this.deps.audit.record(ownUserEvent(user, 'PASSWORD_RESET_REQUEST', ip));
  }

  async reset(token: string, password: string, ip: string): Promise<void> {
    const tokenHash = hashToken(token);
    const row = await this.deps.resets.find(tokenHash);
    if (!row || row.used !== null) throw new DomainError('NOT_FOUND', 'reset link is not valid');
    if (row.expires <= this.now()) throw new DomainError('EXPIRED', 'reset link has expired');
    const user = await this.deps.users.findByUuid(row.user_id);
    if (!user) throw new DomainError('NOT_FOUND', 'reset link is not valid');
    // A refused password leaves the link usable; the token is spent before the password changes,
    // so two racing resets cannot both set one.
    const hashes = await this.checkNewPassword(user.uuid, password);
    if (!(await this.deps.resets.consume(tokenHash, this.now()))) {
      throw new DomainError('NOT_FOUND', 'reset link is not valid');
    }
    await this.storePassword(user.uuid, password, hashes);
    await this.deps.sessions.deleteAllOfUser(user.uuid);
    await this.deps.audit.record(ownUserEvent(user, 'PASSWORD_RESET', ip));
  }

  /**
   * Applies the password rules and the reuse rule, then stores the new hash. Every reset link
   * still out for the user dies with the old password.
   */
  async changePassword(userId: string, password: string): Promise<void> {
    await this.storePassword(userId, password, await this.checkNewPassword(userId, password));
  }

  /** The remembered hashes, once the password passed the rules and is none of them. */
  private async checkNewPassword(userId: string, password: string): Promise<string[]> {
    if (!isStrongPassword(password)) throw new DomainError('BAD_PASSWORD', 'rule');
    const user = await this.deps.users.findByUuid(userId);
    if (!user) throw new DomainError('NOT_FOUND');
    const previous = [user.password_hash, ...(JSON.parse(user.password_history) as string[])].slice(
      0,
      REMEMBERED_PASSWORDS,
    );
    for (const old of previous) {
      if (await verifyPassword(password, old)) throw new DomainError('BAD_PASSWORD', 'reused');
    }
    return previous;
  }

  private async storePassword(userId: string, password: string, previous: string[]): Promise<void> {
    await this.deps.users.setPassword(
      userId,
      await hashPassword(password),
      previous.slice(0, REMEMBERED_PASSWORDS - 1),
    );
    await this.deps.resets.revokeAll(userId, this.now());
  }
}
