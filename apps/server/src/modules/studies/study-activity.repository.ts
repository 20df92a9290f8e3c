import type { Compilable, Kysely } from 'kysely';
import { sql } from 'kysely';
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
  id: number;
}

/** The HL7 order events: an order's add, update and cancel written with no user (the HL7 inbox's). */
const HL7_ORDER_ACTIONS = ['ORDER_ADD', 'ORDER_UPDATE', 'ORDER_CANCEL'];

/**
 * The account, or the absent user, compared through coalesce so that no index serves it: every
 * study/list reads its page's HL7 messages, and SQLite (which keeps no statistics here) took an
 * equality on the account or on `user_id is null` as the most selective term, walking the account's
 * whole audit history (or every event no user made: one CREATE per received study) newest first for
 * a page that has no HL7 message at all: 190 ms a page once 300,000 such events were stored
 * (docs/performance-log.md). Read by the page's own keys instead (audit_object, orders_accession),
 * the cost stays with the page. Account ids and user ids are never empty, so '' matches only a null.
 */
const accountOf = sql<string>`coalesce(audit_events.account_id, '')`;
const noUser = sql<boolean>`coalesce(audit_events.user_id, '') = ''`;

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

/** The lists a page's activity is read for; an empty list leaves its kind of event out. */
export interface ActivityKeys {
  /** Studies whose ROUTE events the caller may see. */
  routed: readonly string[];
  /** The page's accounts and accession numbers, for HL7 results. */
  accounts: readonly string[];
  accessions: readonly string[];
  /** The accounts whose HL7 order messages the caller may see. */
  orderAccounts: readonly string[];
}

/**
 * What touched a page of studies, read from the audit log (newest first, `cap` events of each kind
 * at most): the routing rules that ran on them (`key` the study's uuid, action ROUTE), and the HL7
 * results (HL7_RESULT) and order messages (ORDER_*) of their accession numbers in their accounts
 * (`key` the accession number).
 */
export class StudyActivityRepository {
  // Every study/list reads this for its page: the three kinds come in one statement (one round trip
  // on PostgreSQL, one statement's fixed cost on SQLite instead of three), compiled once per length
  // of its lists, as a page's tags are (db/in-list-template.ts), since building and compiling it
  // costs more JavaScript than the database spends running it.
  private readonly templates = new TemplateCache<ListArgs, ActivityEvent>(MAX_CACHED_LENGTH);

  constructor(private readonly db: Kysely<Database>) {}

  async pageEvents(keys: ActivityKeys, cap: number): Promise<ActivityEvent[]> {
    const hl7 = keys.accessions.length > 0 && keys.accounts.length > 0;
    const lists: Record<string, readonly string[]> = {
      r: keys.routed,
      a: hl7 ? keys.accounts : [],
      x: hl7 ? keys.accessions : [],
      o: hl7 ? keys.orderAccounts : [],
    };
    const lengths = Object.values(lists).map((values) => values.length);
    if (lengths.every((length) => length === 0)) return [];
    if (lengths.some((length) => length > MAX_CACHED_LENGTH))
      return (await this.db.executeQuery(this.eventsQuery(lists, cap).compile())).rows;
    const template = this.templates.get(lengths.join('/'), (slot) =>
      this.eventsQuery(
        Object.fromEntries(
          Object.entries(lists).map(([prefix, values]) => [prefix, slots(slot, prefix, values.length)]),
        ),
        slot('cap') as number,
      ),
    );
    return (await template.execute(this.db, listArgs(lists, cap))).rows;
  }

  /** The kinds whose lists are not empty, each capped, as one UNION ALL newest first. */
  private eventsQuery(lists: Record<string, readonly string[]>, cap: number): Compilable<ActivityEvent> {
    const arms = [
      lists['r']!.length ? this.routeQuery(lists['r']!, cap) : undefined,
      lists['x']!.length ? this.resultQuery(lists['a']!, lists['x']!, cap) : undefined,
      lists['x']!.length && lists['o']!.length ? this.orderQuery(lists['o']!, lists['x']!, cap) : undefined,
    ]
      .filter((arm) => arm !== undefined)
      // Each arm keeps its own order and limit inside a derived table.
      .map((arm, i) => this.db.selectFrom(arm.as(`arm${i}`)).selectAll());
    // All kinds newest first, as each arm was: a UNION ALL alone promises no order.
    return arms
      .slice(1)
      .reduce((all, arm) => all.unionAll(arm), arms[0]!)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc');
  }

  private routeQuery(studyUuids: readonly string[], cap: number) {
    return this.db
      .selectFrom('audit_events')
      .select(['object_id as key', 'account_id', 'action', 'outcome', 'detail', 'at', 'id'])
      .where('object_id', 'in', studyUuids)
      .where('object_type', '=', 'study')
      .where('action', '=', 'ROUTE')
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(cap);
  }

  private resultQuery(accountIds: readonly string[], accessions: readonly string[], cap: number) {
    return this.db
      .selectFrom('audit_events')
      .select(['object_id as key', 'account_id', 'action', 'outcome', 'detail', 'at', 'id'])
      .where('object_id', 'in', accessions)
      .where('object_type', '=', 'accession')
      .where('action', '=', 'HL7_RESULT')
      .where(accountOf, 'in', accountIds)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(cap);
  }

  private orderQuery(accountIds: readonly string[], accessions: readonly string[], cap: number) {
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
        'audit_events.id',
      ])
      .where('orders.account_id', 'in', accountIds)
      .where('orders.accession_number', 'in', accessions)
      .where('audit_events.object_type', '=', 'order')
      .where('audit_events.action', 'in', HL7_ORDER_ACTIONS)
      .where(noUser)
      .orderBy('audit_events.at', 'desc')
      .orderBy('audit_events.id', 'desc')
      .limit(cap);
  }
}
