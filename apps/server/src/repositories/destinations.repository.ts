import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database, DestinationTable, DicomNodeTable } from '../db/schema.js';

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

  /** Changes the destination and, when its AE title or address moved, its sender in one transaction. */
  async update(
    uuid: string,
    changes: Updateable<DestinationTable>,
    node: { uuid: string; changes: Updateable<DicomNodeTable> } | undefined,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('destinations').set(changes).where('uuid', '=', uuid).execute();
      if (node && Object.keys(node.changes).length) {
        await trx.updateTable('dicom_nodes').set(node.changes).where('uuid', '=', node.uuid).execute();
      }
    });
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

  /** Deletes the destination and its sender registration. */
  async remove(uuid: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('dicom_nodes').where('destination_id', '=', uuid).execute();
      await trx.deleteFrom('destinations').where('uuid', '=', uuid).execute();
    });
  }
}
