import type { Insertable } from 'kysely';
import type { AuditEventTable } from '../db/schema.js';
import type { AuditRepository } from '../repositories/audit.repository.js';

export interface AuditEntry {
  userId: string | null;
  accountId?: string | null;
  action: string;
  objectType: string;
  objectId?: string | null;
  outcome?: 'SUCCESS' | 'FAILURE';
  detail?: Record<string, unknown> | null;
  ip?: string | null;
}

/** Every PHI read or change, and every sign-in, leaves one append-only event. */
export class AuditService {
  constructor(
    private readonly audit: AuditRepository,
    private readonly now: () => number = Date.now,
  ) {}

  async record(entry: AuditEntry): Promise<void> {
    await this.audit.insert(this.row(entry));
  }

  /** The row for an event, for a repository that writes it in the same transaction as the change. */
  row(entry: AuditEntry): Insertable<AuditEventTable> {
    return {
      at: this.now(),
      user_id: entry.userId,
      account_id: entry.accountId ?? null,
      action: entry.action,
      object_type: entry.objectType,
      object_id: entry.objectId ?? null,
      outcome: entry.outcome ?? 'SUCCESS',
      detail: entry.detail ? JSON.stringify(entry.detail) : null,
      ip: entry.ip ?? null,
    };
  }
}
