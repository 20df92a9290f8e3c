import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** An audit event as a study's routes and HL7 messages are read from it. */
export interface ActivityEvent {
  key: string;
  account_id: string | null;
  action: string;
  outcome: string;
  detail: string | null;
  at: number;
}

/** The HL7 order events: an order's add, update and cancel written with no user (the HL7 inbox's). */
const HL7_ORDER_ACTIONS = ['ORDER_ADD', 'ORDER_UPDATE', 'ORDER_CANCEL'];

/**
 * What touched a page of studies, read from the audit log (newest first, `cap` events at most): the
 * routing rules that ran on them, and the HL7 messages of their accession numbers in their accounts.
 */
export class StudyActivityRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** ROUTE events of these studies; `key` is the study's uuid. */
  routeEvents(studyUuids: string[], cap: number): Promise<ActivityEvent[]> {
    if (!studyUuids.length) return Promise.resolve([]);
    return this.db
      .selectFrom('audit_events')
      .select(['object_id as key', 'account_id', 'action', 'outcome', 'detail', 'at'])
      .where('object_id', 'in', studyUuids)
      .where('object_type', '=', 'study')
      .where('action', '=', 'ROUTE')
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(cap)
      .execute() as Promise<ActivityEvent[]>;
  }

  /** HL7 results of these accession numbers in these accounts; `key` is the accession number. */
  resultEvents(accountIds: string[], accessions: string[], cap: number): Promise<ActivityEvent[]> {
    if (!accessions.length || !accountIds.length) return Promise.resolve([]);
    return this.db
      .selectFrom('audit_events')
      .select(['object_id as key', 'account_id', 'action', 'outcome', 'detail', 'at'])
      .where('object_id', 'in', accessions)
      .where('object_type', '=', 'accession')
      .where('action', '=', 'HL7_RESULT')
      .where('account_id', 'in', accountIds)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(cap)
      .execute() as Promise<ActivityEvent[]>;
  }

  /** HL7 order messages of the orders with these accession numbers in these accounts; `key` is the accession number. */
  orderEvents(accountIds: string[], accessions: string[], cap: number): Promise<ActivityEvent[]> {
    if (!accessions.length || !accountIds.length) return Promise.resolve([]);
    return this.db
      .selectFrom('orders')
      .innerJoin('audit_events', 'audit_events.object_id', 'orders.uuid')
      .select([
        'orders.accession_number as key',
        'orders.account_id',
        'audit_events.action',
        'audit_events.outcome',
        'audit_events.detail',
        'audit_events.at',
      ])
      .where('orders.account_id', 'in', accountIds)
      .where('orders.accession_number', 'in', accessions)
      .where('audit_events.object_type', '=', 'order')
      .where('audit_events.action', 'in', HL7_ORDER_ACTIONS)
      .where('audit_events.user_id', 'is', null)
      .orderBy('audit_events.at', 'desc')
      .orderBy('audit_events.id', 'desc')
      .limit(cap)
      .execute();
  }
}
