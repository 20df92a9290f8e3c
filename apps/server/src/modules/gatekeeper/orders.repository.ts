import type { OrderQuery } from '@imaging-inbox/contract';
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { AuditEventTable, Database, OrderTable } from '../../db/schema.js';

export type OrderRow = Selectable<OrderTable>;

/** An account's own orders. */
export class OrdersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  find(uuid: string): Promise<OrderRow | undefined> {
    return this.db.selectFrom('orders').selectAll().where('uuid', '=', uuid).executeTakeFirst();
  }

  byAccession(accountId: string, accessionNumber: string): Promise<OrderRow | undefined> {
    return this.db
      .selectFrom('orders')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('accession_number', '=', accessionNumber)
      .executeTakeFirst();
  }

  /**
   * The account's orders matching one filter, newest first: accession number and MRN exactly, the
   * patient name as a LIKE pattern on its upper-cased copy. `limit` rows from `offset`.
   */
  search(accountId: string, query: OrderQuery, offset: number, limit: number): Promise<OrderRow[]> {
    let q = this.db.selectFrom('orders').selectAll().where('account_id', '=', accountId);
    if (query.filter === 'patient_name') q = q.where('patient_name_key', 'like', query.value.toUpperCase());
    else q = q.where(query.filter, '=', query.value);
    return q.orderBy('created', 'desc').orderBy('uuid', 'desc').offset(offset).limit(limit).execute();
  }

  /**
   * A new order and its audit event, in one transaction; false (nothing written) when the account
   * already has an order with that accession number.
   */
  async insert(row: Insertable<OrderTable>, audit: Insertable<AuditEventTable>): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('orders')
        .values(row)
        .onConflict((oc) => oc.columns(['account_id', 'accession_number']).doNothing())
        .returning('uuid')
        .executeTakeFirst();
      if (!inserted) return false;
      await trx.insertInto('audit_events').values(audit).execute();
      return true;
    });
  }

  /** An order changed (an HL7 update or cancel) and its audit event, in one transaction. */
  async update(
    uuid: string,
    changes: Updateable<OrderTable>,
    audit: Insertable<AuditEventTable>,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('orders').set(changes).where('uuid', '=', uuid).execute();
      await trx.insertInto('audit_events').values(audit).execute();
    });
  }
}
