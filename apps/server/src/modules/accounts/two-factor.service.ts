import {
  RECOVERY_CODE_COUNT,
  REQUIRE_TWO_FACTOR_SETTING,
  type TotpEnrolment,
  type TotpStatusAnswer,
} from '@imaging-inbox/contract';
import { DomainError, invalidField } from '../../domain/errors.js';
import { requireAccountSettingsEdit, type Caller } from '../../policies/index.js';
import { ownUserEvent, type AuditService } from '../../audit/audit.service.js';
import type { ResettableMember } from '../admin/index.js';
import type { Mailer } from '../../mail/mailer.js';
import { mailTexts } from '../../mail/messages/index.js';
import type { AccountsRepository } from '../../repositories/accounts.repository.js';
import type { AuthFailuresRepository } from '../../repositories/auth-failures.repository.js';
import type { MembershipsRepository } from '../../repositories/memberships.repository.js';
import type { SettingsRepository } from '../../repositories/settings.repository.js';
import type { UserRow } from '../../repositories/users.repository.js';
import { hashToken } from '../../security/tokens.js';
import { LoginThrottle, type RateLimits } from './login-throttle.js';
import type { TwoFactorRepository } from './two-factor.repository.js';
import { enrolmentOf, newRecoveryCode, newTotpSecret, normaliseCode, stepOfCode } from './totp.js';

export interface TwoFactorDeps {
  codes: TwoFactorRepository;
  settings: SettingsRepository;
  memberships: MembershipsRepository;
  failures: AuthFailuresRepository;
  audit: AuditService;
  /** The member is told by mail when an admin resets their codes. */
  mailer: Mailer;
  accounts: Pick<AccountsRepository, 'findAccount'>;
  publicUrl: string;
  rateLimits?: RateLimits;
  now?: () => number;
}

/** How a code was accepted: from the authenticator or one of the recovery codes. */
export type CodeKind = 'totp' | 'recovery';

const accountOwner = (accountId: string) => `account:${accountId}`;

/**
 * Two-factor sign-in codes (TOTP, RFC 6238) of password users: enrolment (a secret shown as a QR
 * code, enabled by a first right code, with ten single-use recovery codes kept hashed), the check
 * at sign-in, and the account setting requiring it. A code is accepted once: its 30-second step is
 * recorded, so a code read over a shoulder cannot be replayed. Codes typed while signed in (to
 * enable or turn off) count against the same sign-in limits as passwords (LoginThrottle).
 */
export class TwoFactorService {
  private readonly now: () => number;
  private readonly throttle: LoginThrottle;

  constructor(private readonly deps: TwoFactorDeps) {
    this.now = deps.now ?? Date.now;
    this.throttle = new LoginThrottle(deps.failures, deps.rateLimits);
  }

  async isEnabled(userId: string): Promise<boolean> {
    return Boolean((await this.deps.codes.find(userId))?.enabled);
  }

  /** Whether an account the user belongs to requires codes. */
  async isRequired(userId: string): Promise<boolean> {
    for (const m of await this.deps.memberships.accountMemberships(userId)) {
      if ((await this.deps.settings.get(accountOwner(m.account_id), REQUIRE_TWO_FACTOR_SETTING)) === '1')
        return true;
    }
    return false;
  }

  async status(userId: string): Promise<Omit<TotpStatusAnswer, 'status'>> {
    const enabled = await this.isEnabled(userId);
    return {
      enabled: enabled ? 1 : 0,
      required: (await this.isRequired(userId)) ? 1 : 0,
      recovery_codes_left: enabled ? await this.deps.codes.recoveryCodesLeft(userId) : 0,
    };
  }

  /** A new secret to scan; replaces one not yet enabled. Refused while codes are on. */
  async startEnrolment(user: UserRow): Promise<TotpEnrolment> {
    if (await this.isEnabled(user.uuid)) throw invalidField('otp', 'two-factor sign-in is already on');
    const secret = newTotpSecret();
    await this.deps.codes.savePending(user.uuid, secret, this.now());
    return enrolmentOf(user.email, secret);
  }

  /**
   * Enables the pending secret when `otp` is right for it, answering the recovery codes (shown once);
   * null for a wrong code. Does not count the attempt: callers do (confirmEnrolment, sign-in).
   */
  async enableWith(user: UserRow, otp: string, ip: string): Promise<string[] | null> {
    const pending = await this.deps.codes.find(user.uuid);
    if (!pending || pending.enabled) return null;
    const now = this.now();
    const step = stepOfCode(normaliseCode(otp), pending.secret, now);
    if (step === null) return null;
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const enabled = await this.deps.codes.enable(user.uuid, step, now, codes.map(recoveryHash));
    if (!enabled) return null;
    await this.deps.audit.record(ownUserEvent(user, 'TWO_FACTOR_ENROL', ip));
    return codes;
  }

  /** Account settings → Security: the first code from the app enables it (counted when wrong). */
  async confirmEnrolment(user: UserRow, otp: string, ip: string): Promise<string[]> {
    let codes: string[] | null = null;
    const ok = await this.throttle.attempt(user.email, ip, this.now(), async () => {
      codes = await this.enableWith(user, otp, ip);
      return codes !== null;
    });
    if (!ok || !codes) {
      await this.failedCode(user, ip, 'enrol');
      throw invalidField('otp', 'wrong or expired code');
    }
    return codes;
  }

  /**
   * Whether `otp` is a right code of the user's enabled secret (a TOTP of a step not used yet, or an
   * unused recovery code, then used up); audits a recovery code's use. Does not count the attempt.
   */
  async verify(user: UserRow, otp: string, ip: string): Promise<CodeKind | null> {
    const row = await this.deps.codes.find(user.uuid);
    if (!row?.enabled) return null;
    const typed = normaliseCode(otp);
    const now = this.now();
    const step = stepOfCode(typed, row.secret, now);
    if (step !== null) return (await this.deps.codes.useStep(user.uuid, step)) ? 'totp' : null;
    if (typed.length !== 10) return null;
    if (!(await this.deps.codes.useRecoveryCode(user.uuid, recoveryHash(typed), now))) return null;
    await this.deps.audit.record(
      ownUserEvent(user, 'TWO_FACTOR_RECOVERY_CODE_USED', ip, {
        detail: { left: await this.deps.codes.recoveryCodesLeft(user.uuid) },
      }),
    );
    return 'recovery';
  }

  /** Turns codes off with a right code; refused when an account of the user requires them. */
  async disable(user: UserRow, otp: string, ip: string): Promise<void> {
    if (await this.isRequired(user.uuid)) {
      throw new DomainError('NOT_PERMITTED', 'two_factor_required');
    }
    const ok = await this.throttle.attempt(user.email, ip, this.now(), async () =>
      Boolean(await this.verify(user, otp, ip)),
    );
    if (!ok) {
      await this.failedCode(user, ip, 'disable');
      throw invalidField('otp', 'wrong or expired code');
    }
    await this.deps.codes.remove(user.uuid);
    await this.deps.audit.record(ownUserEvent(user, 'TWO_FACTOR_DISABLE', ip));
  }

  /** A wrong, used or expired code, audited with where it was typed. */
  async failedCode(user: UserRow, ip: string, during: 'login' | 'enrol' | 'disable'): Promise<void> {
    await this.deps.audit.record(
      ownUserEvent(user, 'TWO_FACTOR_CODE_FAILED', ip, { outcome: 'FAILURE', detail: { during } }),
    );
  }

  /**
   * A lost phone: an admin removes a member's secret and recovery codes, so the member signs in with
   * the password alone, or enrols again at the next sign-in when an account of theirs requires codes.
   * Who may reset whom is admin's rule (`AccountUserService.twoFactorResettable`), asked before this.
   * Audited in the account as the caller's act on the member, with what was removed. A member whose
   * codes were on is told by mail, in their language, who reset them: a reset they did not ask for
   * (a caller posing as them to the help desk) leaves the password as the only factor, and the mail
   * is how they learn it in time.
   */
  async resetByAdmin(caller: Caller, member: ResettableMember): Promise<{ removed: 0 | 1 }> {
    const before = await this.deps.codes.find(member.uuid);
    if (!before) return { removed: 0 };
    const recoveryCodesLeft = await this.deps.codes.recoveryCodesLeft(member.uuid);
    await this.deps.codes.remove(member.uuid);
    await this.deps.audit.recordAdministration(
      caller,
      member.accountId,
      'TWO_FACTOR_RESET',
      'user',
      member.uuid,
      {
        email: member.email,
        was_enabled: before.enabled ? 1 : 0,
        recovery_codes_left: recoveryCodesLeft,
      },
    );
    if (before.enabled) await this.mailReset(caller, member);
    return { removed: 1 };
  }

  private async mailReset(caller: Caller, member: ResettableMember): Promise<void> {
    const account = await this.deps.accounts.findAccount(member.accountId);
    const t = mailTexts(await this.deps.mailer.languages.ofUserId(member.uuid, member.accountId));
    const admin = caller.user.name.trim() || caller.user.email;
    await this.deps.mailer.queue({
      kind: 'two_factor_reset',
      to: member.email,
      subject: t('twoFactorReset.subject'),
      text: t('twoFactorReset.body', {
        admin: `${admin} (${caller.user.email})`,
        account: account?.name ?? '',
        email: member.email,
        link: `${this.deps.publicUrl}/`,
      }),
    });
  }

  /** An account's admin requires (or stops requiring) codes of its members. */
  async setRequired(caller: Caller, accountId: string, required: boolean): Promise<void> {
    requireAccountSettingsEdit(caller, accountId);
    const owner = accountOwner(accountId);
    const before = (await this.deps.settings.get(owner, REQUIRE_TWO_FACTOR_SETTING)) === '1';
    if (required) await this.deps.settings.set(owner, REQUIRE_TWO_FACTOR_SETTING, '1');
    else await this.deps.settings.remove(owner, REQUIRE_TWO_FACTOR_SETTING);
    if (before === required) return;
    await this.deps.audit.recordAdministration(caller, accountId, 'ACCOUNT_SET', 'account', accountId, {
      setting: REQUIRE_TWO_FACTOR_SETTING,
      value: required ? '1' : '0',
      previous: before ? '1' : '0',
    });
  }
}

const recoveryHash = (code: string) => hashToken(`recovery:${normaliseCode(code)}`);
