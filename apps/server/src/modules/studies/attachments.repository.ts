import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { ListFilter } from '@imaging-inbox/contract';
import type { AttachmentTable, Database } from '../../db/schema.js';
import type { DialectName } from '../../db/dialect.js';
import { listFilterSql, type FilterField } from '../../repositories/list-filter.sql.js';

export type AttachmentRow = Selectable<AttachmentTable> & { user_name: string | null };

/** A file to attach: `add` picks its id and version; its uploader is known (the column empties only later). */
export type NewAttachment = Omit<AttachmentTable, 'id' | 'version' | 'created_by'> & { created_by: string };

/** An attachment's answer fields its list filters on, read off its newest version (`a`) and uploader (`u`). */
const ATTACHMENT_FIELDS: Record<string, FilterField> = {
  id: { kind: 'text', value: sql`a.id` },
  filename: { kind: 'text', value: sql`a.filename` },
  mime: { kind: 'text', value: sql`a.mime` },
  size: { kind: 'integer', value: sql`a.size` },
  user_name: { kind: 'text', value: sql`u.name` },
  stored: { kind: 'integer', value: sql`a.created` },
};

/** Attachments of studies; the study's attachment_count is kept in step in the same transaction. */
export class AttachmentsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  /**
   * Stores a new version: the next version of the same file name in the study, or version 1 of a
   * new attachment. Answers the stored row.
   */
  async add(row: NewAttachment, newId: string): Promise<Selectable<AttachmentTable>> {
    return this.db.transaction().execute(async (trx) => {
      // Serialise adds to one study (two uploads of the same name would pick the same version).
      await trx
        .updateTable('studies')
        .set({ updated: row.created })
        .where('uuid', '=', row.study_uuid)
        .execute();
      const latest = await trx
        .selectFrom('attachments')
        .select(['id', 'version'])
        .where('study_uuid', '=', row.study_uuid)
        .where('filename', '=', row.filename)
        .orderBy('version', 'desc')
        .limit(1)
        .executeTakeFirst();
      const stored = { ...row, id: latest?.id ?? newId, version: (latest?.version ?? 0) + 1 };
      await trx.insertInto('attachments').values(stored).execute();
      await this.recount(trx, row.study_uuid);
      return stored;
    });
  }

  /**
   * One page of attachments (newest activity first): the ids, and every version of each. Given
   * filters, only the attachments whose newest version passes them (as `filterRows` compares the
   * answer's fields: id, filename, mime, size, user_name, stored), counted and paged in the query;
   * `undefined` when SQL cannot promise that answer (`listFilterSql`), for the caller to filter in
   * memory.
   */
  async page(
    studyUuid: string,
    offset: number,
    limit: number,
    filters: readonly ListFilter[] = [],
  ): Promise<{ ids: string[]; total: number; versions: AttachmentRow[] } | undefined> {
    const where = listFilterSql(this.dialect, ATTACHMENT_FIELDS, filters);
    if (!where) return undefined;
    // Each attachment's newest version (the one its answer shows) and its latest activity.
    const heads = this.db
      .selectFrom('attachments')
      .select('id')
      .select((eb) => [eb.fn.max('created').as('latest'), eb.fn.max('version').as('top')])
      .where('study_uuid', '=', studyUuid)
      .groupBy('id');
    const matching = this.db
      .selectFrom(heads.as('h'))
      .innerJoin('attachments as a', (join) =>
        join.onRef('a.id', '=', 'h.id').onRef('a.version', '=', 'h.top').on('a.study_uuid', '=', studyUuid),
      )
      .leftJoin('users as u', 'u.uuid', 'a.created_by')
      .where(where);
    const page = await matching
      .select('h.id')
      .orderBy('h.latest', 'desc')
      .orderBy('h.id')
      .limit(limit)
      .offset(offset)
      .execute();
    const totalRow = await matching
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const ids = page.map((h) => h.id);
    const versions = ids.length
      ? await this.db
          .selectFrom('attachments')
          .leftJoin('users', 'users.uuid', 'attachments.created_by')
          .selectAll('attachments')
          .select('users.name as user_name')
          .where('attachments.study_uuid', '=', studyUuid)
          .where('attachments.id', 'in', ids)
          .orderBy('attachments.version', 'desc')
          .execute()
      : [];
    return { ids, total: Number(totalRow.n), versions };
  }

  find(studyUuid: string, id: string, version: number): Promise<Selectable<AttachmentTable> | undefined> {
    return this.db
      .selectFrom('attachments')
      .selectAll()
      .where('study_uuid', '=', studyUuid)
      .where('id', '=', id)
      .where('version', '=', version)
      .executeTakeFirst();
  }

  /** Removes every version of an attachment (or one version); answers the blob keys they used. */
  async remove(studyUuid: string, id: string, version?: number): Promise<string[]> {
    return this.db.transaction().execute(async (trx) => {
      let query = trx.deleteFrom('attachments').where('study_uuid', '=', studyUuid).where('id', '=', id);
      if (version !== undefined) query = query.where('version', '=', version);
      const removed = await query.returning(['blob_key']).execute();
      if (removed.length) await this.recount(trx, studyUuid);
      return removed.map((r) => r.blob_key);
    });
  }

  private async recount(trx: Kysely<Database>, studyUuid: string): Promise<void> {
    await trx
      .updateTable('studies')
      .set({
        attachment_count: sql<number>`(select count(distinct a.id) from attachments a where a.study_uuid = studies.uuid)`,
      })
      .where('uuid', '=', studyUuid)
      .execute();
  }
}
