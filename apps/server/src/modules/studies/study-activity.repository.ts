import type { Compilable, Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { TemplateCache } from '../../db/template-cache.js';

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

/** Lists up to this long get a compiled statement of their own; longer ones are built each time. */
const MAX_CACHED_LENGTH = 100;

type ListArgs = Record<string, string | number>;
type Slot = <K extends string>(name: K) => string | number;

/** A template's arguments: `prefix0`, `prefix1`… for each list's values, and the cap. */
function listArgs(lists: Record<string, readonly string[]>, cap: number): ListArgs {
  const args: ListArgs = { cap };
  for (const [prefix, values] of Object.entries(lists)) values.forEach((v, i) => (args[`${prefix}${i}`] = v));
  return args;
}

/** Stand-ins for a list of `length` values in a template (`slot(prefix0)`, …). */
const slots = (slot: Slot, prefix: string, length: number) =>
  Array.from({ length }, (_, i) => slot(`${prefix}${i}`) as string);

/**
 * What touched a page of studies, read from the audit log (newest first, `cap` events at most): the
 * routing rules that ran on them, and the HL7 messages of their accession numbers in their accounts.
 */
export class StudyActivityRepository {
  // Every study/list reads all three for its page: each is compiled once per length of its lists,
  // as a page's tags are (db/in-list-template.ts), since building and compiling them cost more
  // JavaScript than SQLite spends running them.
  private readonly routeTemplates = new TemplateCache<ListArgs, ActivityEvent>(MAX_CACHED_LENGTH);
  private readonly resultTemplates = new TemplateCache<ListArgs, ActivityEvent>(MAX_CACHED_LENGTH);
  private readonly orderTemplates = new TemplateCache<ListArgs, ActivityEvent>(MAX_CACHED_LENGTH);

  constructor(private readonly db: Kysely<Database>) {}

  /** Runs `build` compiled once for these list lengths, or built anew when a list is long. */
  private async run(
    templates: TemplateCache<ListArgs, ActivityEvent>,
    lists: Record<string, readonly string[]>,
    cap: number,
    build: (lists: Record<string, readonly string[]>, cap: number) => Compilable<ActivityEvent>,
  ): Promise<ActivityEvent[]> {
    const lengths = Object.values(lists).map((values) => values.length);
    if (lengths.some((length) => length > MAX_CACHED_LENGTH))
      return (await this.db.executeQuery(build(lists, cap).compile())).rows;
    const template = templates.get(lengths.join('/'), (slot) =>
      build(
        Object.fromEntries(
          Object.entries(lists).map(([prefix, values]) => [prefix, slots(slot, prefix, values.length)]),
        ),
        slot('cap') as number,
      ),
    );
    return (await template.execute(this.db, listArgs(lists, cap))).rows;
  }

  /** ROUTE events of these studies; `key` is the study's uuid. */
  routeEvents(studyUuids: string[], cap: number): Promise<ActivityEvent[]> {
    if (!studyUuids.length) return Promise.resolve([]);
    return this.run(this.routeTemplates, { s: studyUuids }, cap, (lists, limit) =>
      this.routeQuery(lists.s!, limit),
    );
  }

  private routeQuery(studyUuids: readonly string[], cap: number): Compilable<ActivityEvent> {
    return this.db
      .selectFrom('audit_events')
      .select(['object_id as key', 'account_id', 'action', 'outcome', 'detail', 'at'])
      .where('object_id', 'in', studyUuids)
      .where('object_type', '=', 'study')
      .where('action', '=', 'ROUTE')
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(cap);
  }

  /** HL7 results of these accession numbers in these accounts; `key` is the accession number. */
  resultEvents(accountIds: string[], accessions: string[], cap: number): Promise<ActivityEvent[]> {
    if (!accessions.length || !accountIds.length) return Promise.resolve([]);
    return this.run(this.resultTemplates, { a: accountIds, x: accessions }, cap, (lists, limit) =>
      this.resultQuery(lists.a!, lists.x!, limit),
    );
  }

  private resultQuery(
    accountIds: readonly string[],
    accessions: readonly string[],
    cap: number,
  ): Compilable<ActivityEvent> {
    return this.db
      .selectFrom('audit_events')
      .select(['object_id as key', 'account_id', 'action', 'outcome', 'detail', 'at'])
      .where('object_id', 'in', accessions)
      .where('object_type', '=', 'accession')
      .where('action', '=', 'HL7_RESULT')
      .where('account_id', 'in', accountIds)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(cap);
  }

  /** HL7 order messages of the orders with these accession numbers in these accounts; `key` is the accession number. */
  orderEvents(accountIds: string[], accessions: string[], cap: number): Promise<ActivityEvent[]> {
    if (!accessions.length || !accountIds.length) return Promise.resolve([]);
    return this.run(this.orderTemplates, { a: accountIds, x: accessions }, cap, (lists, limit) =>
      this.orderQuery(lists.a!, lists.x!, limit),
    );
  }

  private orderQuery(
    accountIds: readonly string[],
    accessions: readonly string[],
    cap: number,
  ): Compilable<ActivityEvent> {
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
      .limit(cap);
  }
}
