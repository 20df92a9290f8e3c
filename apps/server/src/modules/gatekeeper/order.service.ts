import type {
  Order,
  OrderAddRequest,
  OrderQuery,
  OrderSearchAnswer,
  OrderSource,
  OrderStatus,
  WorklistOutcome,
} from '@imaging-inbox/contract';
import { invalidField } from '../../domain/errors.js';
import { peerOf } from '../pacs/index.js';
import type { CallingAeOf } from '../pacs/index.js';
import type { PacsClient } from '../pacs/index.js';
import { orderOfWorklist, worklistKeys } from './worklist-query.js';
import type { Caller } from '../../policies/index.js';
import { requireOrderAccount, requireOrderSearchGroup } from './orders.js';
import type { DestinationsRepository } from '../pacs/index.js';
import type { OrderRow, OrdersRepository } from './orders.repository.js';
import { auditEvent, callerEvent, type AuditService } from '../../audit/audit.service.js';
import type { GroupConfigService } from '../admin/index.js';
import { newUuid } from '../../security/tokens.js';

interface Deps {
  orders: OrdersRepository;
  destinations: DestinationsRepository;
  configs: GroupConfigService;
  pacs: Pick<PacsClient, 'findWorklist'>;
  /** The AE title each destination is called as. */
  callingAes: CallingAeOf;
  audit: AuditService;
  now?: () => number;
}

/** The most worklist answers one Search Order reads; past it the C-FIND is cancelled. */
export const WORKLIST_CAP = 200;

/** The attributes of an order as it is written (typed in, or read from an HL7 message). */
export type OrderFields = Omit<Order, 'uuid' | 'account_id' | 'status' | 'source' | 'created' | 'updated'>;

/**
 * Orders (SPEC.md sections 2, 3 and 7): an account's own, typed in (order/add) or received over HL7,
 * listed by one filter (order/list), and a gatekeeper group's Search Order, which adds the orders
 * its worklist destination answers. A worklist that cannot be reached does not fail the search:
 * the account's orders are still answered, with the worklist's reason.
 */
export class OrderService {
  private readonly now: () => number;

  constructor(private readonly deps: Deps) {
    this.now = deps.now ?? Date.now;
  }

  async add(caller: Caller, input: OrderAddRequest): Promise<Order> {
    requireOrderAccount(caller, input.account_id, 'order_edit');
    const order = await this.create(input.account_id, orderFieldsOf(input), 'manual', {
      userId: caller.user.uuid,
      ip: caller.ip,
    });
    if (!order) throw invalidField('accession_number', 'an order with this accession number exists');
    return order;
  }

  /**
   * A new order of the account (typed in or from HL7), audited in its transaction; null when the
   * account already has one with that accession number.
   */
  async create(
    accountId: string,
    fields: OrderFields,
    source: OrderSource,
    by: { userId: string | null; ip: string | null; detail?: Record<string, unknown> },
  ): Promise<Order | null> {
    const now = this.now();
    const row: OrderRow = {
      ...fields,
      uuid: newUuid(),
      account_id: accountId,
      patient_name_key: fields.patient_name.toUpperCase(),
      status: 'SCHEDULED',
      source,
      created: now,
      updated: now,
    };
    const inserted = await this.deps.orders.insert(
      row,
      this.deps.audit.row(
        auditEvent(
          by,
          accountId,
          'ORDER_ADD',
          { type: 'order', id: row.uuid },
          {
            detail: { accession_number: row.accession_number, source, ...by.detail },
          },
        ),
      ),
    );
    return inserted ? present(row) : null;
  }

  /** An HL7 update of an order: new attributes and/or status, audited with what changed. */
  async change(
    row: OrderRow,
    fields: Partial<OrderFields>,
    status: OrderStatus,
    detail: Record<string, unknown>,
  ): Promise<Order> {
    const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== ''));
    const next: OrderRow = { ...row, ...defined, status, updated: this.now() };
    next.patient_name_key = next.patient_name.toUpperCase();
    const changed = Object.keys(next).filter(
      (k) => k !== 'updated' && next[k as keyof OrderRow] !== row[k as keyof OrderRow],
    );
    const { uuid: _u, account_id: _a, created: _c, ...changes } = next;
    await this.deps.orders.update(
      row.uuid,
      changes,
      this.deps.audit.row(
        auditEvent(
          { userId: null },
          row.account_id,
          status === 'CANCELLED' ? 'ORDER_CANCEL' : 'ORDER_UPDATE',
          { type: 'order', id: row.uuid },
          { detail: { ...detail, changed } },
        ),
      ),
    );
    return present(next);
  }

  async list(
    caller: Caller,
    accountId: string,
    query: OrderQuery,
    page: { number: number; rows: number },
  ): Promise<{ orders: Order[]; page: { number: number; rows: number; more: 0 | 1 } }> {
    requireOrderAccount(caller, accountId, 'order_view');
    const rows = await this.deps.orders.search(
      accountId,
      query,
      (page.number - 1) * page.rows,
      page.rows + 1,
    );
    return {
      orders: rows.slice(0, page.rows).map(present),
      page: { ...page, more: rows.length > page.rows ? 1 : 0 },
    };
  }

  /** Search Order of a gatekeeper group: the account's orders, then its worklist's not already among them. */
  async search(
    caller: Caller,
    groupId: string,
    query: OrderQuery,
  ): Promise<Omit<OrderSearchAnswer, 'status'>> {
    const group = requireOrderSearchGroup(caller, groupId);
    const own = (await this.deps.orders.search(group.accountId, query, 0, WORKLIST_CAP)).map(present);
    const { orders: found, worklist } = await this.worklist(
      group.type,
      group.groupId,
      group.accountId,
      query,
    );
    const known = new Set(own.map((o) => o.accession_number));
    const orders = [...own, ...found.filter((o) => !o.accession_number || !known.has(o.accession_number))];
    const searched = { ...query, found: orders.length, worklist: worklist.state };
    await this.deps.audit.record(
      callerEvent(caller, group.accountId, 'ORDER_SEARCH', { type: 'group', id: group.groupId }, searched),
    );
    return { orders, worklist };
  }

  private async worklist(
    type: string,
    groupId: string,
    accountId: string,
    query: OrderQuery,
  ): Promise<{ orders: Order[]; worklist: WorklistOutcome }> {
    // Only a gatekeeper group has a worklist; other groups search the account's orders alone.
    const config = type === 'GATEKEEPER' ? await this.deps.configs.gatekeeper(groupId) : null;
    const none = { state: 'none', destination_id: null, destination_name: null, reason: null } as const;
    if (config?.pacsPromotePreference !== 'MWL' || !config.queryDestination)
      return { orders: [], worklist: none };
    const destination = await this.deps.destinations.find(config.queryDestination);
    if (!destination || destination.account_id !== accountId) {
      return {
        orders: [],
        worklist: { ...none, state: 'failed', reason: 'the worklist destination is gone' },
      };
    }
    const outcome = { destination_id: destination.uuid, destination_name: destination.name };
    try {
      const { results } = await this.deps.pacs.findWorklist(
        await peerOf(destination, this.deps.callingAes),
        worklistKeys(query),
        {
          cap: WORKLIST_CAP,
        },
      );
      const now = this.now();
      return {
        orders: results.map((r) => orderOfWorklist(r, accountId, now)),
        worklist: { ...outcome, state: 'ok', reason: null },
      };
    } catch (error) {
      return {
        orders: [],
        worklist: {
          ...outcome,
          state: 'failed',
          reason: error instanceof Error ? error.message : String(error),
        },
      };
    }
  }
}

/**
 * An order's fields from a checked order/add request, typed in or read off an HL7 message
 * (hl7-inbox.service.ts): what the request leaves out is stored empty.
 */
export function orderFieldsOf(input: OrderAddRequest): OrderFields {
  return {
    accession_number: input.accession_number,
    patient_name: input.patient_name,
    patientid: input.patientid ?? '',
    patient_birth_date: input.patient_birth_date ?? '',
    patient_sex: input.patient_sex ?? '',
    requested_procedure: input.requested_procedure ?? '',
    modality: input.modality ?? '',
    scheduled_date: input.scheduled_date ?? '',
    referring_physician: input.referring_physician ?? '',
  };
}

export function present(row: OrderRow): Order {
  return {
    uuid: row.uuid,
    account_id: row.account_id,
    patient_name: row.patient_name,
    patientid: row.patientid,
    patient_birth_date: row.patient_birth_date,
    patient_sex: row.patient_sex,
    accession_number: row.accession_number,
    requested_procedure: row.requested_procedure,
    modality: row.modality,
    scheduled_date: row.scheduled_date,
    referring_physician: row.referring_physician,
    status: row.status as OrderStatus,
    source: row.source as OrderSource,
    created: Number(row.created),
    updated: Number(row.updated),
  };
}
