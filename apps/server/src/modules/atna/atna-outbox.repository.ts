import type { Generated, Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { ATNA_SEND_JOB } from '../../jobs/job-kinds.js';
import type { QueuedEvent } from './audit-message.js';

/** The module's tables (migration 20261202T1320-atna-outbox), beside the kernel's it reads. */
export interface AtnaTables {
  /** One row while audit events are queued for a collector (the trigger's switch). */
  atna_switch: { id: number; since: number };
  /** Audit events not yet handed to the collector, in the order they go out (id). */
  atna_outbox: {
    id: Generated<number>;
    audit_event_id: number;
    study_uid: string | null;
    patient_id: string | null;
    patient_name: string | null;
    accession_number: string | null;
  };
}

export type AtnaDatabase = Database & AtnaTables;

/** The queue of audit events for the collector: switched on and off, read in order, emptied as sent. */
export class AtnaOutboxRepository {
  constructor(private readonly db: Kysely<AtnaDatabase>) {}

  /** From now on every audit event is queued too (in the transaction that records it). */
  async switchOn(now: number): Promise<void> {
    await this.db
      .insertInto('atna_switch')
      .values({ id: 1, since: now })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }

  /** No new event is queued; those already queued stay (and are sent if a collector comes back). */
  async switchOff(): Promise<void> {
    await this.db.deleteFrom('atna_switch').execute();
  }

  /** The oldest `limit` queued events with what their messages say. */
  async next(limit: number): Promise<QueuedEvent[]> {
    const rows = await this.db
      .selectFrom('atna_outbox')
      .innerJoin('audit_events', 'audit_events.id', 'atna_outbox.audit_event_id')
      .leftJoin('users', 'users.uuid', 'audit_events.user_id')
      .select([
        'atna_outbox.id as queue_id',
        'atna_outbox.study_uid',
        'atna_outbox.patient_id',
        'atna_outbox.patient_name',
        'atna_outbox.accession_number',
        'audit_events.id as event_id',
        'audit_events.at',
        'audit_events.user_id',
        'audit_events.account_id',
        'audit_events.action',
        'audit_events.object_type',
        'audit_events.object_id',
        'audit_events.outcome',
        'audit_events.detail',
        'audit_events.ip',
        'users.email as user_email',
        'users.name as user_name',
      ])
      .orderBy('atna_outbox.id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      queueId: Number(r.queue_id),
      eventId: Number(r.event_id),
      at: Number(r.at),
      userId: r.user_id,
      userEmail: r.user_email,
      userName: r.user_name,
      accountId: r.account_id,
      action: r.action,
      objectType: r.object_type,
      objectId: r.object_id,
      outcome: r.outcome,
      detail: r.detail,
      ip: r.ip,
      study:
        r.study_uid === null
          ? null
          : {
              uid: r.study_uid,
              patientId: r.patient_id ?? '',
              patientName: r.patient_name ?? '',
              accession: r.accession_number ?? '',
            },
    }));
  }

  /** Queue rows whose audit event is gone (never in practice: events are append-only): dropped. */
  async dropOrphans(): Promise<number> {
    const result = await this.db
      .deleteFrom('atna_outbox')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('audit_events')
              .select('id')
              .whereRef('audit_events.id', '=', 'atna_outbox.audit_event_id'),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async remove(queueIds: number[]): Promise<void> {
    if (queueIds.length) await this.db.deleteFrom('atna_outbox').where('id', 'in', queueIds).execute();
  }

  /** How many events wait, and when the oldest of them was recorded. */
  async backlog(): Promise<{ count: number; oldestAt: number | null }> {
    const counted = await this.db
      .selectFrom('atna_outbox')
      .select((eb) => [eb.fn.countAll().as('count'), eb.fn.min('audit_event_id').as('first')])
      .executeTakeFirstOrThrow();
    const count = Number(counted.count);
    if (!count || counted.first === null) return { count, oldestAt: null };
    const oldest = await this.db
      .selectFrom('audit_events')
      .select('at')
      .where('id', '=', Number(counted.first))
      .executeTakeFirst();
    return { count, oldestAt: oldest ? Number(oldest.at) : null };
  }

  /** Whether a sender job is queued or running (in any process). */
  async senderPending(): Promise<boolean> {
    const row = await this.db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', ATNA_SEND_JOB.kind)
      .where('status', 'in', ['queued', 'running'])
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }
}
