import {
  ACCOUNT_LANGUAGE_SETTING,
  DEFAULT_LANGUAGE,
  isLanguage,
  type Language,
} from '@imaging-inbox/contract';
import type { SettingsRepository } from '../repositories/settings.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';

/**
 * Which language an e-mail is written in: the recipient user's own choice, else their account's
 * language, else English. A recipient without an account (an outside e-mail address) reads the
 * language of whoever made the mail happen, so the sender passes themselves as the reader.
 */
export class MailLanguages {
  constructor(private readonly deps: { settings: SettingsRepository; users: UsersRepository }) {}

  /** The language of a user whose row is at hand (`language` is the users column). */
  async ofUser(user: { language?: string | null } | undefined, accountId?: string | null): Promise<Language> {
    if (isLanguage(user?.language)) return user.language;
    return this.ofAccount(accountId);
  }

  /** Notification recipients as mail readers, each with their language. */
  readers<T extends { email: string; name: string; language: string | null; account_id: string }>(
    recipients: T[],
  ): Promise<(T & { language: Language })[]> {
    return Promise.all(recipients.map(async (r) => ({ ...r, language: await this.ofUser(r, r.account_id) })));
  }

  /** The language of a user known by uuid (English when there is none). */
  async ofUserId(userId: string | null | undefined, accountId?: string | null): Promise<Language> {
    const user = userId ? await this.deps.users.findByUuid(userId) : undefined;
    return this.ofUser(user, accountId);
  }

  async ofAccount(accountId: string | null | undefined): Promise<Language> {
    if (!accountId) return DEFAULT_LANGUAGE;
    const chosen = await this.deps.settings.get(`account:${accountId}`, ACCOUNT_LANGUAGE_SETTING);
    return isLanguage(chosen) ? chosen : DEFAULT_LANGUAGE;
  }
}
