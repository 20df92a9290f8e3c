import {
  ACCOUNT_CALLING_AET_PARAM,
  ACCOUNT_LANGUAGE_MESSAGES,
  ACCOUNT_LANGUAGE_PARAM,
  ACCOUNT_LANGUAGE_SETTING,
  isLanguage,
  type Language,
} from '@imaging-inbox/contract';
import { invalidField } from '../../domain/errors.js';
import { requireAccountSettingsEdit, type Caller } from '../../policies/index.js';
import type { SettingsRepository } from '../../repositories/settings.repository.js';
import type { AuditService } from '../../audit/audit.service.js';
import type { CallingAeTitles } from '../pacs/index.js';

/**
 * The settings an account's admins change with account/set: its default language, which e-mails to
 * its users who chose none are written in (mail/mail-language.ts), and the AE title it calls its
 * PACS destinations as (calling-ae-titles.service.ts). The value is checked before anything is
 * written; every change is audited with the value it replaced.
 */
export class AccountSettingsService {
  constructor(
    private readonly deps: { settings: SettingsRepository; audit: AuditService; callingAes: CallingAeTitles },
  ) {}

  /** The AE title the account calls its PACS as (its default given first if it had none). */
  callingAe(accountId: string): Promise<string> {
    return this.deps.callingAes.ofAccount(accountId);
  }

  /** Refuses a calling AE title account/set would refuse, before any other setting is written. */
  async checkCallingAe(caller: Caller, accountId: string, wanted: string): Promise<void> {
    requireAccountSettingsEdit(caller, accountId);
    await this.deps.callingAes.check(wanted.trim(), ACCOUNT_CALLING_AET_PARAM, accountId, null);
  }

  /** Sets the AE title the account calls its PACS as: unique server-wide in any case or padding. */
  async setCallingAe(caller: Caller, accountId: string, wanted: string): Promise<string> {
    requireAccountSettingsEdit(caller, accountId);
    const before = await this.deps.callingAes.ofAccount(accountId);
    const title = await this.deps.callingAes.setForAccount(accountId, wanted, ACCOUNT_CALLING_AET_PARAM);
    if (title !== before) {
      await this.deps.audit.recordAdministration(caller, accountId, 'ACCOUNT_SET', 'account', accountId, {
        setting: 'calling_aet',
        value: title,
        previous: before,
      });
    }
    return title;
  }

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
