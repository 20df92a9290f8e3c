import type { Kysely, Selectable } from 'kysely';
import type { Database, HarvestNoticeTable } from '../db/schema.js';
import type { AlsoInTransaction } from './with-transaction.js';

export type HarvestNoticeRow = Selectable<HarvestNoticeTable>;

/** Pending "harvested from gateway" mails, one per study received over DICOM. */
export class HarvestNoticesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records a received study once; a second call for the same study changes nothing. */
  async add(notice: Omit<HarvestNoticeTable, 'attempts'>): Promise<void> {
    await this.db
      .insertInto('harvest_notices')
      .values(notice)
      .onConflict((oc) => oc.column('study_uuid').doNothing())
      .execute();
  }

  due(now: number, limit: number): Promise<HarvestNoticeRow[]> {
    return this.db
      .selectFrom('harvest_notices')
      .selectAll()
      .where('due_at', '<=', now)
      .orderBy('due_at')
      .limit(limit)
      .execute();
  }

  /**
   * Takes a due notice for this process by moving its due time to `until`, only if nobody moved it
   * since it was read: several app processes may flush, and only one of them wins each notice.
   */
  async claim(notice: HarvestNoticeRow, until: number): Promise<boolean> {
    const result = await this.db
      .updateTable('harvest_notices')
      .set({ due_at: until })
      .where('study_uuid', '=', notice.study_uuid)
      .where('due_at', '=', notice.due_at)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async postpone(studyUuid: string, dueAt: number, attempts?: number): Promise<void> {
    await this.db
      .updateTable('harvest_notices')
      .set(attempts === undefined ? { due_at: dueAt } : { due_at: dueAt, attempts })
      .where('study_uuid', '=', studyUuid)
      .execute();
  }

  /**
   * Removes the notice; with `also` (queueing its mails) in the same transaction, run only when
   * this call removed the row, so a notice is mailed about once even if two processes got it.
   */
  async remove(studyUuid: string, also?: AlsoInTransaction): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .deleteFrom('harvest_notices')
        .where('study_uuid', '=', studyUuid)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) !== 1) return false;
      await also?.(trx);
      return true;
    });
  }
}
