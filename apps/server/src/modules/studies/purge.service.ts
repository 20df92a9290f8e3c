import type { PurgeRepository } from './purge.repository.js';
import type { SettingsRepository } from '../../repositories/settings.repository.js';
import type { BlobCollector } from '../../storage/blob-collector.js';
import { studyEvent, type AuditService } from '../../audit/audit.service.js';

/** Account setting: days a deleted study stays in Deleted items before permanent removal. */
export const RETENTION_SETTING = 'deleted_retention_days';
export const DEFAULT_RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;
/** Studies removed per account per run: a run stays short; the next one continues. */
const BATCH = 200;

export interface PurgeDeps {
  repo: PurgeRepository;
  settings: SettingsRepository;
  collector: BlobCollector;
  audit: AuditService;
  now?: () => number;
}

export interface PurgeResult {
  studies: number;
  files: number;
}

/**
 * Permanent removal of deleted studies past their account's retention: index rows first (one
 * transaction per study), then the blob files no remaining instance references. Blobs are
 * content-addressed and shared (shared copies, the same file uploaded to two groups), so a file
 * goes only when the last reference does.
 */
export class PurgeService {
  private readonly now: () => number;
  constructor(private readonly deps: PurgeDeps) {
    this.now = deps.now ?? Date.now;
  }

  async retentionDays(accountId: string): Promise<number> {
    const raw = await this.deps.settings.get(`account:${accountId}`, RETENTION_SETTING);
    const days = raw === undefined ? NaN : Number(raw);
    return Number.isFinite(days) && days >= 0 ? days : DEFAULT_RETENTION_DAYS;
  }

  async purge(): Promise<PurgeResult> {
    const result: PurgeResult = { studies: 0, files: 0 };
    const now = this.now();
    for (const accountId of await this.deps.repo.accountIds()) {
      const before = now - (await this.retentionDays(accountId)) * DAY_MS;
      for (const uuid of await this.deps.repo.expired(accountId, before, BATCH)) {
        const keys = await this.deps.repo.removeStudy(uuid);
        const files = await this.deps.collector.removeUnreferenced(keys);
        result.studies += 1;
        result.files += files;
        await this.deps.audit.record(
          studyEvent({ userId: null }, { uuid, account_id: accountId }, 'PURGE', { files_removed: files }),
        );
      }
    }
    // Files left unreferenced inside their grace period (by this or an earlier run, a stopped
    // share, an edit) whose period has ended.
    result.files += await this.deps.collector.sweep();
    return result;
  }
}
