import { isStrongPassword } from '@imaging-inbox/contract';
import { DomainError } from '../domain/errors.js';
import type { Mailer } from '../mail/mailer.js';
import type { PasswordResetsRepository } from '../repositories/password-resets.repository.js';
import type { SessionsRepository } from '../repositories/sessions.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { AuditService } from './audit.service.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { hashToken, newSecretToken } from './tokens.js';

const RESET_TTL_MS = 60 * 60_000;
/** The new password may not equal the current one nor either of the two before it. */
const REMEMBERED_PASSWORDS = 3;

export interface PasswordResetDeps {
  users: UsersRepository;
  resets: PasswordResetsRepository;
  sessions: SessionsRepository;
  mailer: Mailer;
  audit: AuditService;
  publicUrl: string;
  now?: () => number;
}

export class PasswordResetService {
  private readonly now: () => number;
  constructor(private readonly deps: PasswordResetDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Always resolves the same way, whether or not the address has a login. */
  async requestReset(email: string, ip: string): Promise<void> {
    const user = await this.deps.users.findByEmail(email);
    if (!user || user.status !== 'ACTIVE') return;
    const token = newSecretToken();
    const link = `${this.deps.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
    await this.deps.resets.insert(
      { token_hash: hashToken(token), user_id: user.uuid, expires: this.now() + RESET_TTL_MS, used: null },
      (trx) =>
        this.deps.mailer.queue(
          {
            kind: 'password_reset',
            to: user.email,
            subject: 'Reset your Imaging Inbox password',
            text: `Someone asked to reset the password of ${user.email}.\n\nOpen this link within one hour to choose a new password:\n${link}\n\nIf it was not you, ignore this message.`,
          },
          trx,
        ),
    );
    this.deps.mailer.kick();
    await this.deps.audit.record({
      userId: user.uuid,
      action: 'PASSWORD_RESET_REQUEST',
      objectType: 'user',
      objectId: user.uuid,
      ip,
    });
  }

  async reset(token: string, password: string, ip: string): Promise<void> {
    const tokenHash = hashToken(token);
    const row = await this.deps.resets.find(tokenHash);
    if (!row || row.used !== null) throw new DomainError('NOT_FOUND', 'reset link is not valid');
    if (row.expires <= this.now()) throw new DomainError('EXPIRED', 'reset link has expired');
    const user = await this.deps.users.findByUuid(row.user_id);
    if (!user) throw new DomainError('NOT_FOUND', 'reset link is not valid');
    await this.changePassword(user.uuid, password);
    if (!(await this.deps.resets.consume(tokenHash, this.now()))) {
      throw new DomainError('NOT_FOUND', 'reset link is not valid');
    }
    await this.deps.sessions.deleteAllOfUser(user.uuid);
    await this.deps.audit.record({
      userId: user.uuid,
      action: 'PASSWORD_RESET',
      objectType: 'user',
      objectId: user.uuid,
      ip,
    });
  }

  /** Applies the password rules and the reuse rule, then stores the new hash. */
  async changePassword(userId: string, password: string): Promise<void> {
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
    await this.deps.users.setPassword(
      user.uuid,
      await hashPassword(password),
      previous.slice(0, REMEMBERED_PASSWORDS - 1),
    );
  }
}
