import {
  LABEL_KEY_MAX_LENGTH,
  LABEL_MESSAGES,
  LABEL_TEXT_MAX_LENGTH,
  MAX_LABEL_OVERRIDES,
  isLanguage,
  type LabelOverride,
  type Language,
} from '@imaging-inbox/contract';
import { invalidField, notFound } from '../../domain/errors.js';
import { requireAccountMember, requireAdministration, type Caller } from '../../policies/index.js';
import type { LabelOverridesRepository } from './label-overrides.repository.js';
import type { AuditService } from '../../audit/audit.service.js';

export interface LabelServiceDeps {
  labels: LabelOverridesRepository;
  audit: AuditService;
  now?: () => number;
}

/**
 * An account's own wording of the product's labels, per language. Every member reads them (the web
 * app applies them after sign-in); label_edit holders (account admins hold it) change them. Input
 * is checked before anything is written, and every change is audited with the text it replaced.
 */
export class LabelService {
  private readonly now: () => number;

  constructor(private readonly deps: LabelServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  async list(caller: Caller, accountId: string | undefined): Promise<LabelOverride[]> {
    const account = this.accountOf(caller, accountId);
    requireAccountMember(caller, account);
    const rows = await this.deps.labels.list(account);
    return rows.filter((r) => isLanguage(r.language)).map(present);
  }

  async set(
    caller: Caller,
    accountId: string | undefined,
    input: { language: string; key: string; text: string },
  ): Promise<LabelOverride> {
    const account = this.accountOf(caller, accountId);
    requireAdministration(caller, account, 'label', 'edit');
    const language = checkLanguage(input.language);
    if (input.key.length > LABEL_KEY_MAX_LENGTH) throw invalidField('key', LABEL_MESSAGES.keyTooLong);
    if (input.text.length > LABEL_TEXT_MAX_LENGTH) throw invalidField('text', LABEL_MESSAGES.textTooLong);
    const before = await this.deps.labels.find(account, language, input.key);
    const written = await this.deps.labels.put(
      {
        account_id: account,
        language,
        key: input.key,
        text: input.text,
        updated_by: caller.user.uuid,
        updated: this.now(),
      },
      MAX_LABEL_OVERRIDES,
    );
    if (!written) throw invalidField('key', LABEL_MESSAGES.tooMany);
    await this.deps.audit.recordAdministration(
      caller,
      account,
      'LABEL_SET',
      'label',
      `${language}:${input.key}`,
      {
        language,
        key: input.key,
        text: input.text,
        previous: before?.text ?? null,
      },
    );
    return { language, key: input.key, text: input.text };
  }

  async remove(
    caller: Caller,
    accountId: string | undefined,
    languageName: string,
    key: string,
  ): Promise<void> {
    const account = this.accountOf(caller, accountId);
    requireAdministration(caller, account, 'label', 'edit');
    const language = checkLanguage(languageName);
    const before = await this.deps.labels.find(account, language, key);
    if (!before || !(await this.deps.labels.remove(account, language, key))) {
      throw notFound(LABEL_MESSAGES.notFound);
    }
    await this.deps.audit.recordAdministration(
      caller,
      account,
      'LABEL_DELETE',
      'label',
      `${language}:${key}`,
      {
        language,
        key,
        previous: before.text,
      },
    );
  }

  /** The named account, else the one the session opens on (the caller's first). */
  private accountOf(caller: Caller, accountId: string | undefined): string {
    const account = accountId ?? [...caller.accounts.keys()][0];
    if (!account) throw notFound('account');
    return account;
  }
}

function checkLanguage(language: string): Language {
  if (!isLanguage(language)) throw invalidField('language', LABEL_MESSAGES.languageInvalid);
  return language;
}

function present(row: { language: string; key: string; text: string }): LabelOverride {
  return { language: row.language as Language, key: row.key, text: row.text };
}
