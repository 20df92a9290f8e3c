import {
  ACCOUNT_LANGUAGE_MESSAGES,
  ACCOUNT_LANGUAGE_PARAM,
  ACCOUNT_LANGUAGE_SETTING,
  isLanguage,
  type Language,
} from '@imaging-inbox/contract';
import { invalidField } from '../domain/errors.js';
import { requireAccountSettingsEdit, type Caller } from '../policies/index.js';
import type { SettingsRepository } from '../repositories/settings.repository.js';
import type { AuditService } from './audit.service.js';

/**
 * The settings an account's admins change with account/set: today its default language, which
 * e-mails to its users who chose none are written in (mail/mail-language.ts). The value is checked
 * before anything is written; every change is audited with the value it replaced.
 */
export class AccountSettingsService {
  constructor(private readonly deps: { settings: SettingsRepository; audit: AuditService }) {}

  /** Sets the account's default language; '' forgets it (English again). */
  async setDefaultLanguage(caller: Caller, accountId: string, wanted: string): Promise<Language | ''> {
    requireAccountSettingsEdit(caller, accountId);
    if (wanted !== '' && !isLanguage(wanted)) {
      throw invalidField(ACCOUNT_LANGUAGE_PARAM, ACCOUNT_LANGUAGE_MESSAGES.invalid);
    }
    const owner = `account:${accountId}`;
    const before = (await this.deps.settings.get(owner, ACCOUNT_LANGUAGE_SETTING)) ?? '';
    if (wanted === '') await this.deps.settings.remove(owner, ACCOUNT_LANGUAGE_SETTING);
    else await this.deps.settings.set(owner, ACCOUNT_LANGUAGE_SETTING, wanted);
    await this.deps.audit.recordAdministration(caller, accountId, 'ACCOUNT_SET', 'account', accountId, {
      setting: ACCOUNT_LANGUAGE_SETTING,
      value: wanted,
      previous: before,
    });
    return wanted;
  }
}
