import {
  DATE_FORMAT_SETTING,
  DEFAULT_DATE_FORMAT,
  PERSONAL_GROUP_NAME,
  PROFILE_MESSAGES,
  isDateFormat,
  isLanguage,
  normalizeProfile,
  profileProblems,
  type DateFormat,
  type ProfileChanges,
  type ProfileFields,
  type UserProfile,
} from '@imaging-inbox/contract';
import { DomainError, invalidField } from '../../domain/errors.js';
import { mayChangeShareCode, requireShareCodeChange } from '../sharing/index.js';
import type { Caller } from '../../policies/index.js';
import type { AuthFailuresRepository } from '../../repositories/auth-failures.repository.js';
import type { SendsRepository } from '../sharing/index.js';
import type { SessionsRepository } from '../../repositories/sessions.repository.js';
import type { SettingsRepository } from '../../repositories/settings.repository.js';
import type { SharesRepository } from '../sharing/index.js';
import type { UsersRepository } from '../../repositories/users.repository.js';
import { ownUserEvent, type AuditService } from '../../audit/audit.service.js';
import type { PasswordResetService } from './password-reset.service.js';
import { verifyPassword } from '../../security/passwords.js';
import { LoginThrottle, type RateLimits } from './login-throttle.js';

export interface ProfileDeps {
  users: UsersRepository;
  sessions: SessionsRepository;
  settings: SettingsRepository;
  shares: SharesRepository;
  sends: SendsRepository;
  failures: AuthFailuresRepository;
  passwords: PasswordResetService;
  audit: AuditService;
  rateLimits?: RateLimits;
  now?: () => number;
}

const settingsOwner = (userId: string) => `user:${userId}`;

/**
 * The signed-in user's own profile and password (Account settings, Profile and Password tabs).
 * The share code belongs to the user's personal namespace in their first account, so a send by
 * that code lands in their 'Shared with me' group like any other send by share code.
 */
export class ProfileService {
  private readonly now: () => number;
  private readonly throttle: LoginThrottle;

  constructor(private readonly deps: ProfileDeps) {
    this.now = deps.now ?? Date.now;
    this.throttle = new LoginThrottle(deps.failures, deps.rateLimits);
  }

  async get(caller: Caller): Promise<UserProfile> {
    const user = caller.user;
    const accountId = primaryAccountId(caller);
    const [code, dateFormat] = await Promise.all([
      accountId ? this.deps.users.personalShareCode(user.uuid, accountId) : undefined,
      this.deps.settings.get(settingsOwner(user.uuid), DATE_FORMAT_SETTING),
    ]);
    return {
      uuid: user.uuid,
      email: user.email,
      first: user.first_name,
      last: user.last_name,
      time_zone: user.time_zone,
      mobile_phone: user.mobile_phone,
      share_code: code?.share_code ?? null,
      share_description: code?.share_description ?? null,
      share_code_editable: accountId !== undefined && mayChangeShareCode(caller, accountId),
      date_format: isDateFormat(dateFormat) ? dateFormat : DEFAULT_DATE_FORMAT,
      language: isLanguage(user.language) ? user.language : '',
    };
  }

  /**
   * Fields left out keep their value. Every field is checked before any is written, so a refused
   * save changes nothing.
   */
  async set(caller: Caller, changes: ProfileChanges): Promise<UserProfile> {
    const { language: givenLanguage, ...given } = changes;
    const before = await this.get(caller);
    const values = normalizeProfile({ ...before, ...given });
    const wanted = givenLanguage === undefined ? before.language : givenLanguage.trim();
    const language = wanted === '' || isLanguage(wanted) ? wanted : refuseLanguage();
    const problems = profileProblems(values);
    if (problems.time_zone) throw new DomainError('INVALID_TIME_ZONE', problems.time_zone);
    const [field, why] = Object.entries(problems)[0] ?? [];
    if (field && why) throw invalidField(field, why);

    const accountId = primaryAccountId(caller);
    const codeChanged =
      values.share_code !== before.share_code || values.share_description !== before.share_description;
    if (codeChanged && !accountId) throw invalidField('share_code', 'no account to receive sends');
    if (codeChanged && accountId) {
      requireShareCodeChange(caller, accountId);
      await this.setShareCode(caller.user.uuid, accountId, values);
    }

    await this.deps.users.setProfile(caller.user.uuid, {
      first_name: values.first,
      last_name: values.last,
      time_zone: values.time_zone,
      mobile_phone: values.mobile_phone,
    });
    await this.deps.settings.set(settingsOwner(caller.user.uuid), DATE_FORMAT_SETTING, values.date_format);
    if (language !== before.language) await this.deps.users.setLanguage(caller.user.uuid, language || null);
    const changed: string[] = (Object.keys(values) as (keyof ProfileFields)[]).filter(
      (key) => values[key] !== before[key],
    );
    if (language !== before.language) changed.push('language');
    await this.deps.audit.record(
      ownUserEvent(caller.user, 'PROFILE_EDIT', caller.ip, { detail: { fields: changed } }),
    );
    // Everything stored is known here, so the answer needs no second read; profileProblems has
    // already refused any date format outside DATE_FORMATS.
    return { ...before, ...values, date_format: values.date_format as DateFormat, language };
  }

  /**
   * The registry (share_codes) refuses a code another owner holds in any case, the user's own
   * current code excepted; a refused code changes nothing.
   */
  private async setShareCode(userId: string, accountId: string, values: ProfileFields): Promise<void> {
    const namespaceId = await this.deps.shares.personalNamespace(accountId, userId, PERSONAL_GROUP_NAME);
    if (!(await this.deps.sends.setShareCode(namespaceId, values.share_code, values.share_description)))
      throw invalidField('share_code', PROFILE_MESSAGES.shareCodeTaken);
  }

  /**
   * The current password must be right (INVALID_PASSWORD); wrong guesses count with the sign-in
   * failures of that login from that address (LoginThrottle), so a borrowed session cannot try
   * passwords faster than the login page allows.
   * The new one follows the password and reuse rules (BAD_PASSWORD). Other sessions end.
   */
  async changePassword(caller: Caller, oldPassword: string, password: string): Promise<void> {
    const user = caller.user;
    const now = this.now();
    const right = await this.throttle.attempt(user.email, caller.ip, now, () =>
      verifyPassword(oldPassword, user.password_hash),
    );
    if (!right) {
      await this.deps.audit.record(ownUserEvent(user, 'PASSWORD_CHANGE', caller.ip, { outcome: 'FAILURE' }));
      throw new DomainError('INVALID_PASSWORD');
    }
    await this.deps.passwords.changePassword(user.uuid, password);
    await this.deps.sessions.deleteOthersOfUser(user.uuid, caller.sidHash);
    await this.deps.audit.record(ownUserEvent(user, 'PASSWORD_CHANGE', caller.ip));
  }
}

function refuseLanguage(): never {
  throw invalidField('language', PROFILE_MESSAGES.languageInvalid);
}

/** The account the session shows first (session/user answers the same one). */
function primaryAccountId(caller: Caller): string | undefined {
  return [...caller.accounts.values()][0]?.accountId;
}
