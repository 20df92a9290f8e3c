import type { AuditAction } from '@imaging-inbox/contract';
import type { Insertable } from 'kysely';
import type { AuditEventTable } from '../db/schema.js';
import type { Caller } from '../policies/index.js';
import type { AuditRepository } from './audit.repository.js';

export interface AuditEntry {
  userId: string | null;
  accountId?: string | null;
  action: AuditAction;
  objectType: string;
  objectId?: string | null;
  outcome?: 'SUCCESS' | 'FAILURE';
  detail?: Record<string, unknown> | null;
  ip?: string | null;
}

/**
 * Who an event names: a signed-in caller, or, for work done later or by the server itself (a job, a
 * routing rule, a DICOM peer, the HL7 inbox), the user it is done for (none when no one asked) and
 * the address the request came from (none for the server's own work).
 */
export type Actor = Pick<Caller, 'user' | 'ip'> | { userId: string | null; ip?: string | null };

/** The object an event is about; a search, a sign-in or a check names only the kind it looked at. */
export interface AuditObject {
  type: string;
  id?: string | null;
}

/** What an event says beyond who did what to which object: the detail, and a failure (else success). */
export interface AuditMore {
  detail?: Record<string, unknown> | null;
  outcome?: 'SUCCESS' | 'FAILURE';
}

/**
 * The one shape of every audit event: who (and from where), which account (none for a person's own
 * sign-in and credentials), what, on which object, and how it went. The helpers below name the
 * shapes that recur, so a call site states only what differs.
 */
export function auditEvent(
  actor: Actor,
  accountId: string | null,
  action: AuditAction,
  object: AuditObject,
  more: AuditMore = {},
): AuditEntry {
  return {
    userId: 'user' in actor ? actor.user.uuid : actor.userId,
    accountId,
    action,
    objectType: object.type,
    objectId: object.id ?? null,
    outcome: more.outcome,
    detail: more.detail,
    ip: actor.ip ?? null,
  };
}

/**
 * What a signed-in caller did to one object of an account: the event names them (and the address
 * they called from), the account, the object and what happened. Every caller's event has this shape.
 */
export function callerEvent(
  caller: Pick<Caller, 'user' | 'ip'>,
  accountId: string,
  action: AuditAction,
  object: AuditObject,
  detail?: Record<string, unknown> | null,
): AuditEntry {
  return auditEvent(caller, accountId, action, object, { detail });
}

/**
 * What someone without an account did through a link they hold (a request link, an e-mailed send):
 * no user, the link's account and object, the address they called from and whether it worked.
 */
export function visitorEvent(
  accountId: string,
  action: AuditAction,
  object: { type: string; id: string },
  ip: string,
  outcome: 'SUCCESS' | 'FAILURE',
  detail: Record<string, unknown>,
): AuditEntry {
  return auditEvent({ userId: null, ip }, accountId, action, object, { outcome, detail });
}

/**
 * What was done to one study: by a signed-in caller, or by a job, rule or peer for a user (or none);
 * the event names the study and its account.
 */
export function studyEvent(
  actor: Actor,
  study: { uuid: string; account_id: string },
  action: AuditAction,
  detail?: Record<string, unknown>,
  outcome?: 'SUCCESS' | 'FAILURE',
): AuditEntry {
  return auditEvent(actor, study.account_id, action, { type: 'study', id: study.uuid }, { detail, outcome });
}

/**
 * What a person did to their own sign-in (a password, two-factor codes, their profile): the event
 * names them as both who and what, and no account, since a person's credentials belong to none.
 */
export function ownUserEvent(
  user: { uuid: string },
  action: AuditAction,
  ip: string | null,
  more?: AuditMore,
): AuditEntry {
  return auditEvent({ userId: user.uuid, ip }, null, action, { type: 'user', id: user.uuid }, more);
}

/**
 * A sign-in, a refused one or a sign-out: who (none when the login named no one), from where, and
 * the account only when the sign-in went through one (single sign-on, an account's rule).
 */
export function sessionEvent(
  actor: { userId: string | null; ip: string },
  action: AuditAction,
  more: AuditMore & { accountId?: string | null } = {},
): AuditEntry {
  return auditEvent(actor, more.accountId ?? null, action, { type: 'session' }, more);
}

/** Repeats of one read (same user, object, route and address) within this window are one event. */
export const READ_AUDIT_WINDOW_MS = 60_000;
/** Reads remembered for that purpose; the oldest is forgotten first. */
const RECENT_READS_KEPT = 10_000;

/** Every PHI read or change, and every sign-in, leaves one append-only event. */
export class AuditService {
  private readonly recentReads = new Map<string, number>();

  constructor(
    private readonly audit: AuditRepository,
    private readonly now: () => number = Date.now,
  ) {}

  async record(entry: AuditEntry): Promise<void> {
    await this.audit.insert(this.row(entry));
  }

  /**
   * A read that a viewer repeats many times a minute (each slice, frame or thumbnail, each range a
   * video player asks for): the first within READ_AUDIT_WINDOW_MS is recorded and its repeats are
   * not. Who read what, when, from where and how is all still there; only the count is dropped,
   * which kept History readable and spared a synced commit per slice.
   */
  async recordRead(entry: AuditEntry): Promise<void> {
    const key = JSON.stringify([
      entry.userId,
      entry.action,
      entry.objectType,
      entry.objectId ?? null,
      entry.detail ?? null,
      entry.ip ?? null,
    ]);
    const now = this.now();
    const last = this.recentReads.get(key);
    if (last !== undefined && now - last < READ_AUDIT_WINDOW_MS) return;
    // Claimed before the write, so reads that arrive together (a viewer's parallel requests) make one.
    this.recentReads.delete(key);
    this.recentReads.set(key, now);
    if (this.recentReads.size > RECENT_READS_KEPT)
      this.recentReads.delete(this.recentReads.keys().next().value!);
    try {
      await this.record(entry);
    } catch (error) {
      this.recentReads.delete(key);
      throw error;
    }
  }

  /**
   * A caller's read of a study through `via` (a DICOMweb route, the thumbnail list), its repeats
   * counted once as `recordRead` does. Thumbnails use their own action so a Summary with many series
   * does not flood the History.
   */
  async recordStudyRead(
    caller: Pick<Caller, 'user' | 'ip'>,
    study: { uuid: string; account_id: string },
    via: string,
    action: 'STUDY_VIEW' | 'THUMBNAIL_VIEW' = 'STUDY_VIEW',
  ): Promise<void> {
    await this.recordRead(studyEvent(caller, study, action, { via }));
  }

  /**
   * A caller's change to an object an account administers (a destination, a DICOM node, an account
   * user, a routing rule, a webhook): who, which account, what and the before/after detail.
   */
  async recordAdministration(
    caller: Pick<Caller, 'user' | 'ip'>,
    accountId: string,
    action: AuditAction,
    objectType: string,
    objectId: string,
    detail: Record<string, unknown> | null,
  ): Promise<void> {
    await this.record(callerEvent(caller, accountId, action, { type: objectType, id: objectId }, detail));
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
