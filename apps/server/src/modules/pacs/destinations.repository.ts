import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database, DestinationTable, DicomNodeTable } from '../../db/schema.js';

export type DestinationRow = Selectable<DestinationTable>;

/** PACS-like destinations of an account, with the sender registration each one brings along. */
export class DestinationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Adds the destination and its sender registration in one transaction. */
  async insert(row: Insertable<DestinationTable>, node: Insertable<DicomNodeTable>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('destinations').values(row).execute();
      await trx.insertInto('dicom_nodes').values(node).execute();
    });
  }

  /**
   * Adds a destination that is this product's own listener (another of its AE titles): it never
   * delivers C-MOVEs to us, so no sender is registered for it.
   */
  async insertLocal(row: Insertable<DestinationTable>): Promise<void> {
    await this.db.insertInto('destinations').values(row).execute();
  }

  find(uuid: string): Promise<DestinationRow | undefined> {
    return this.db.selectFrom('destinations').selectAll().where('uuid', '=', uuid).executeTakeFirst();
  }

  /** The account's destinations by name, optionally only those uuids. */
  listOfAccount(accountId: string, uuids?: string[]): Promise<DestinationRow[]> {
    let query = this.db.selectFrom('destinations').selectAll().where('account_id', '=', accountId);
    if (uuids) {
      if (!uuids.length) return Promise.resolve([]);
      query = query.where('uuid', 'in', uuids);
    }
    return query.orderBy('name').orderBy('uuid').execute();
  }

  /**
   * Changes the destination and, when its AE title or address moved, its sender in one transaction:
   * the sender changed, registered (its target is no longer shared) or dropped (it now shares
   * another destination's sender).
   */
  async update(
    uuid: string,
    changes: Updateable<DestinationTable>,
    node:
      | { uuid: string; changes: Updateable<DicomNodeTable> }
      | { insert: Insertable<DicomNodeTable> }
      | { drop: true }
      | undefined,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('destinations').set(changes).where('uuid', '=', uuid).execute();
      if (node && 'drop' in node) {
        await trx.deleteFrom('dicom_nodes').where('destination_id', '=', uuid).execute();
      } else if (node && 'insert' in node) {
        await trx.insertInto('dicom_nodes').values(node.insert).execute();
      } else if (node && Object.keys(node.changes).length) {
        await trx.updateTable('dicom_nodes').set(node.changes).where('uuid', '=', node.uuid).execute();
      }
    });
  }

  /**
   * The destinations (of any account) at this PACS target: its AE title in any case or padding,
   * its port, and its address as written (case-blind); `except` left out.
   */
  atTarget(
    target: { aetitle: string; address: string; port: number },
    except?: string,
  ): Promise<DestinationRow[]> {
    let query = this.db
      .selectFrom('destinations')
      .selectAll()
      .where((e) => e(e.fn('upper', [e.fn('trim', ['aetitle'])]), '=', target.aetitle.trim().toUpperCase()))
      .where((e) => e(e.fn('lower', ['address']), '=', target.address.toLowerCase()))
      .where('port', '=', target.port);
    if (except) query = query.where('uuid', '!=', except);
    return query.orderBy('created').orderBy('uuid').execute();
  }

  /**
   * The destinations of an account (a destination, when it has a title of its own) whose PACS has
   * this AE title in any case: where that PACS delivers what it was asked to move to that account.
   */
  ofAccountByAeTitle(accountId: string, aeTitle: string): Promise<DestinationRow[]> {
    return this.db
      .selectFrom('destinations')
      .selectAll()
      .where('account_id', '=', accountId)
      .where((e) => e(e.fn('upper', [e.fn('trim', ['aetitle'])]), '=', aeTitle.trim().toUpperCase()))
      .execute();
  }

  /** Destinations with an automatic echo whose interval has passed since their last echo. */
  async dueForEcho(now: number): Promise<DestinationRow[]> {
    const rows = await this.db
      .selectFrom('destinations')
      .selectAll()
      .where('c_echo_interval', 'is not', null)
      .execute();
    // Few rows (an account's PACS peers): the interval arithmetic stays out of dialect-specific SQL.
    return rows.filter(
      (r) => r.last_echo_at === null || Number(r.last_echo_at) + Number(r.c_echo_interval) * 1000 <= now,
    );
  }

  async recordEcho(
    uuid: string,
    echo: { ok: boolean; ms: number | null; reason: string | null; at: number },
  ): Promise<void> {
    await this.db
      .updateTable('destinations')
      .set({
        last_echo_ok: echo.ok ? 1 : 0,
        last_echo_ms: echo.ms,
        last_echo_reason: echo.reason,
        last_echo_at: echo.at,
      })
      .where('uuid', '=', uuid)
      .execute();
  }

  /**
   * Deletes the destination, its own calling AE title and its sender registration; `handoff`: the
   * sender registered instead for another destination that shared its target.
   */
  async remove(uuid: string, handoff?: Insertable<DicomNodeTable>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('dicom_nodes').where('destination_id', '=', uuid).execute();
      await trx.deleteFrom('calling_ae_titles').where('destination_id', '=', uuid).execute();
      await trx.deleteFrom('destinations').where('uuid', '=', uuid).execute();
      if (handoff) await trx.insertInto('dicom_nodes').values(handoff).execute();
    });
  }
}
