import type { Kysely, Updateable } from 'kysely';
import { sql } from 'kysely';
import type { Database, StudyTable } from '../../db/schema.js';

export interface StoredFile {
  uuid: string;
  blob_key: string;
  size: number;
}

export interface ReplacedFile {
  uuid: string;
  blobKey: string;
  sha256: string;
  size: number;
}

/**
 * The files of a study when an edit rewrites them: the index row and the instances' blob keys
 * change together in one transaction, so a reader sees either the old files and values or the new.
 */
export class StudyFilesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async files(studyUuid: string): Promise<StoredFile[]> {
    const rows = await this.db
      .selectFrom('instances')
      .select(['uuid', 'blob_key', 'size'])
      .where('study_uuid', '=', studyUuid)
      .orderBy('uuid')
      .execute();
    return rows.map((r) => ({ ...r, size: Number(r.size) }));
  }

  /** The study's series and their images, in series then instance number order (storage `schema`). */
  async schema(studyUuid: string) {
    const [series, images] = await Promise.all([
      this.db
        .selectFrom('series')
        .select([
          'uuid',
          'series_uid',
          'modality',
          'series_number',
          'series_description',
          'body_part',
          'image_count',
        ])
        .where('study_uuid', '=', studyUuid)
        .orderBy('series_number')
        .orderBy('series_uid')
        .execute(),
      this.db
        .selectFrom('instances')
        .select([
          'series_uuid',
          'sop_instance_uid',
          'sop_class_uid',
          'instance_number',
          'transfer_syntax',
          'rows',
          'columns',
          'frames',
          'size',
        ])
        .where('study_uuid', '=', studyUuid)
        .orderBy('instance_number')
        .orderBy('sop_instance_uid')
        .execute(),
    ]);
    return { series, images };
  }

  /** The study's new values and its instances' new files; series and study sizes follow. */
  /**
   * Points the instances at their rewritten files and applies the index change, with any custom
   * field values (keyed by field uuid; null clears), in one transaction.
   */
  async replace(
    studyUuid: string,
    changes: Updateable<StudyTable>,
    files: ReplacedFile[],
    customFields: Record<string, string | null> = {},
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const [name, value] of Object.entries(customFields)) {
        await trx
          .insertInto('study_customfields')
          .values({ study_uuid: studyUuid, name, value })
          .onConflict((oc) => oc.columns(['study_uuid', 'name']).doUpdateSet({ value }))
          .execute();
      }
      for (const file of files) {
        await trx
          .updateTable('instances')
          .set({ blob_key: file.blobKey, sha256: file.sha256, size: file.size })
          .where('uuid', '=', file.uuid)
          .where('study_uuid', '=', studyUuid)
          .execute();
      }
      await trx
        .updateTable('series')
        .set({
          size: sql<number>`(select coalesce(sum(i.size), 0) from instances i where i.series_uuid = series.uuid)`,
        })
        .where('study_uuid', '=', studyUuid)
        .execute();
      await trx
        .updateTable('studies')
        .set({
          ...changes,
          size: sql<number>`(select coalesce(sum(i.size), 0) from instances i where i.study_uuid = studies.uuid)`,
        })
        .where('uuid', '=', studyUuid)
        .execute();
    });
  }
}
