import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, StorageCommitmentTable } from '../../db/schema.js';

export type StorageCommitmentRow = Selectable<StorageCommitmentTable>;

/** The storage commitments pushes asked of their PACS (decision 0064), durable across restarts. */
export class StorageCommitmentsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: Insertable<StorageCommitmentTable>): Promise<void> {
    await this.db.insertInto('storage_commitments').values(row).execute();
  }

  find(transactionUid: string): Promise<StorageCommitmentRow | undefined> {
    return this.db
      .selectFrom('storage_commitments')
      .selectAll()
      .where('transaction_uid', '=', transactionUid)
      .executeTakeFirst();
  }

  /** The commitment of this push still waiting for its report, if any. */
  waitingOf(pushId: string): Promise<StorageCommitmentRow | undefined> {
    return this.db
      .selectFrom('storage_commitments')
      .selectAll()
      .where('push_id', '=', pushId)
      .where('state', '=', 'waiting')
      .executeTakeFirst();
  }

  async acknowledged(transactionUid: string, at: number): Promise<void> {
    await this.db
      .updateTable('storage_commitments')
      .set({ acknowledged: at })
      .where('transaction_uid', '=', transactionUid)
      .execute();
  }

  /**
   * Ends a waiting commitment (committed, failed, expired) and marks the instances of its push that
   * were not committed failed with their reasons, in one transaction. Answers false when it was no
   * longer waiting (another process, or the report and the expiry, got there first): then nothing changed.
   */
  async settle(
    row: StorageCommitmentRow,
    state: 'committed' | 'failed' | 'expired',
    uncommitted: ReadonlyMap<string, string>,
    at: number,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('storage_commitments')
        .set({ state, reported: at })
        .where('transaction_uid', '=', row.transaction_uid)
        .where('state', '=', 'waiting')
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) return false;
      for (const [sopInstanceUid, reason] of uncommitted) {
        await trx
          .updateTable('study_push_instances')
          .set({ state: 'failed', reason })
          .where('push_id', '=', row.push_id)
          // The UID the PACS received and reports (a de-identified push's own, decision 0071).
          .where((eb) => eb(eb.fn.coalesce('sent_uid', 'sop_instance_uid'), '=', sopInstanceUid))
          .where('state', '=', 'stored')
          .execute();
      }
      return true;
    });
  }
}
