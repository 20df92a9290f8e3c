import { randomUUID } from 'node:crypto';
import { modalityMask, STUDY_STATUS } from '@imaging-inbox/contract';
import type { StudyEditableField } from '@imaging-inbox/contract';
import type { Insertable, Kysely } from 'kysely';
import { sql } from 'kysely';
import type { ParsedInstance } from '../dicom/index.js';
import type { DialectName, SqliteDirect } from '../db/dialect.js';
import { sqliteTransaction, transactionWithoutSync } from '../db/index-durability.js';
import { SqliteGroupCommit } from '../db/sqlite-group-commit.js';
import { QueryTemplate } from '../db/query-template.js';
import type { AuditEventTable, Database, InstanceTable } from '../db/schema.js';
import { searchKey } from './study-search.sql.js';
import { markStoreStage } from '../metrics/store-stages.js';

export interface IndexTarget {
  accountId: string;
  namespaceId: string;
  sourceAeTitle?: string;
  destinationAeTitle?: string;
  /** A retrieve (C-MOVE) is filling the study: one created now stays out of study/list until it ends. */
  retrieving?: boolean;
}

/** The study's patient and exam attributes as its files carry them. */
function studyAttributes(p: ParsedInstance) {
  return {
    patient_name: p.patientName,
    patient_name_key: searchKey(p.patientName),
    patientid: p.patientId,
    patientid_key: searchKey(p.patientId),
    patient_sex: p.patientSex,
    patient_birth_date: p.patientBirthDate,
    patient_age: p.patientAge,
    accession_number: p.accessionNumber,
    study_description: p.studyDescription,
    study_description_key: searchKey(p.studyDescription),
    study_date: p.studyDate,
    study_time: p.studyTime,
    referring_physician: p.referringPhysician,
    referring_physician_key: searchKey(p.referringPhysician),
    institution_name: p.institutionName,
  };
}

export interface IndexResult {
  studyUuid: string;
  seriesUuid: string;
  duplicate: boolean;
  studyCreated: boolean;
}

/** An instance's rows as indexIn left them, for countIn. */
interface Placed {
  result: IndexResult;
  seriesCreated: boolean;
  /** The study's modalities before this instance, backslash-separated. */
  knownModalities: string;
}

/** The audit event to write with an instance, decided once the index knows what happened. */
export type AuditInTransaction = (result: IndexResult) => Insertable<AuditEventTable> | undefined;

/** A series' counters after one more instance of `size` bytes. */
const seriesCounters = (size: number) => ({
  image_count: sql<number>`image_count + 1`,
  size: sql<number>`size + ${size}`,
});

/** A study's counters after one more instance of `size` bytes; `newSeries` is 1 when it started a series. */
const studyCounters = (size: number, newSeries: number, updated: number) => ({
  image_count: sql<number>`image_count + 1`,
  size: sql<number>`size + ${size}`,
  series_count: sql<number>`series_count + ${newSeries}`,
  updated,
});

/**
 * Writes one instance into the study index in a single transaction: the study and series rows
 * are created on first sight, counters and the modality set are kept in step. A SOP Instance UID
 * already present in the study is a duplicate and changes nothing.
 */
export class IngestRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
    /** SQLite's connection itself: the index transaction and its compiled statements skip Kysely's executor. */
    private readonly direct?: SqliteDirect,
  ) {
    this.grouped = direct ? new SqliteGroupCommit(db, direct) : undefined;
  }

  /**
   * SQLite: the rows of instances that wait for the connection commit together (decision 0080).
   * Exposed for tests and the bench (its commits and rows).
   */
  readonly grouped: SqliteGroupCommit | undefined;

  // The statements every received instance runs, compiled once (db/query-template.ts).
  private readonly instanceInStudy = new QueryTemplate<
    { namespaceId: string; studyUid: string; sopInstanceUid: string },
    { studyUuid: string; seriesUuid: string }
  >((slot) =>
    this.db
      .selectFrom('instances')
      .innerJoin('studies', 'studies.uuid', 'instances.study_uuid')
      .select(['instances.study_uuid as studyUuid', 'instances.series_uuid as seriesUuid'])
      .where('studies.namespace_id', '=', slot('namespaceId'))
      .where('studies.study_uid', '=', slot('studyUid'))
      .where('instances.sop_instance_uid', '=', slot('sopInstanceUid')),
  );

  private readonly studyByUid = new QueryTemplate<
    { namespaceId: string; studyUid: string },
    { uuid: string; modality: string; study_status: string; image_count: number }
  >((slot) =>
    this.db
      .selectFrom('studies')
      .select(['uuid', 'modality', 'study_status', 'image_count'])
      .where('namespace_id', '=', slot('namespaceId'))
      .where('study_uid', '=', slot('studyUid')),
  );

  private readonly seriesByUid = new QueryTemplate<
    { studyUuid: string; seriesUid: string },
    { uuid: string }
  >((slot) =>
    this.db
      .selectFrom('series')
      .select('uuid')
      .where('study_uuid', '=', slot('studyUuid'))
      .where('series_uid', '=', slot('seriesUid')),
  );

  private readonly insertInstance = new QueryTemplate<
    Insertable<InstanceTable> & Record<string, unknown>,
    never
  >((slot) =>
    this.db
      .insertInto('instances')
      .values({
        uuid: slot('uuid'),
        study_uuid: slot('study_uuid'),
        series_uuid: slot('series_uuid'),
        sop_instance_uid: slot('sop_instance_uid'),
        sop_class_uid: slot('sop_class_uid'),
        instance_number: slot('instance_number'),
        transfer_syntax: slot('transfer_syntax'),
        rows: slot('rows'),
        columns: slot('columns'),
        frames: slot('frames'),
        blob_key: slot('blob_key'),
        size: slot('size'),
        sha256: slot('sha256'),
        created: slot('created'),
      })
      .onConflict((oc) => oc.columns(['study_uuid', 'sop_instance_uid']).doNothing()),
  );

  private readonly countIntoSeries = new QueryTemplate<{ seriesUuid: string; size: number }, never>((slot) =>
    this.db
      .updateTable('series')
      .set(seriesCounters(slot('size')))
      .where('uuid', '=', slot('seriesUuid')),
  );

  /** The study's counters; `newSeries` is 1 when the instance started a series, else 0. */
  private readonly countIntoStudy = new QueryTemplate<
    { studyUuid: string; size: number; newSeries: number; updated: number },
    never
  >((slot) =>
    this.db
      .updateTable('studies')
      .set(studyCounters(slot('size'), slot('newSeries'), slot('updated')))
      .where('uuid', '=', slot('studyUuid')),
  );

  /**
   * PostgreSQL: the series' and the study's counters in one statement (a data-modifying WITH), one
   * round trip instead of two while the transaction holds both rows, which every instance of the
   * study from every association of every process updates (decision 0078 puts them after the file).
   */
  private readonly countIntoSeriesAndStudy = new QueryTemplate<
    { seriesUuid: string; studyUuid: string; size: number; newSeries: number; updated: number },
    never
  >((slot) =>
    this.db
      .with('counted_series', (db) =>
        db
          .updateTable('series')
          .set(seriesCounters(slot('size')))
          .where('uuid', '=', slot('seriesUuid')),
      )
      .updateTable('studies')
      .set(studyCounters(slot('size'), slot('newSeries'), slot('updated')))
      .where('uuid', '=', slot('studyUuid')),
  );

  /**
   * `syncCommit: false` is for an instance whose file is durable before the commit and is the record
   * of truth (C-STORE): the commit does not wait for the database log's sync (see
   * transactionWithoutSync).
   *
   * `fileDurable`, when given, is the file's write still in progress: the statements run while it
   * syncs and the transaction commits only once it has resolved (and rolls back if it rejects), so
   * a row never outlives a file that did not reach the disk, and the index work costs no wait of
   * its own. That holds the connection (SQLite has one) through the rest of the write, so when
   * another instance's index is already under way or waiting (several associations), this one
   * waits for its file first and then takes the connection only for its statements: one
   * transaction's wait for its disk no longer queues everyone else's behind it.
   *
   * On SQLite, such a waiting instance's rows then go into the next shared transaction with every
   * other instance's that waits by then (SqliteGroupCommit, decision 0080): its answer still comes
   * only after that transaction's commit, with its file durable before the transaction began.
   */
  async indexInstance(
    p: ParsedInstance,
    target: IndexTarget,
    blob: { key: string; sha256: string; size: number },
    now: number,
    audit?: AuditInTransaction,
    options: { syncCommit: boolean; fileDurable?: Promise<unknown> } = { syncCommit: true },
  ): Promise<IndexResult> {
    const crowded = this.indexing > 0;
    this.indexing += 1;
    try {
      if (crowded) await options.fileDurable;
      const result =
        crowded && this.grouped
          ? await this.grouped.commit(
              options.syncCommit,
              this.indexWork(p, target, blob, now, audit, options),
            )
          : await this.indexNow(p, target, blob, now, audit, options);
      markStoreStage('committed');
      return result;
    } finally {
      this.indexing -= 1;
    }
  }

  /** Index transactions under way or waiting for the connection. */
  private indexing = 0;

  private indexNow(
    p: ParsedInstance,
    target: IndexTarget,
    blob: { key: string; sha256: string; size: number },
    now: number,
    audit: AuditInTransaction | undefined,
    options: { syncCommit: boolean; fileDurable?: Promise<unknown> },
  ): Promise<IndexResult> {
    const work = this.indexWork(p, target, blob, now, audit, options);
    if (this.direct) return sqliteTransaction(this.db, this.direct, options.syncCommit, work);
    return options.syncCommit
      ? this.db.transaction().execute(work)
      : transactionWithoutSync(this.db, this.dialect, work);
  }

  /** One instance's statements in the transaction `trx` holds, committed by the caller. */
  private indexWork(
    p: ParsedInstance,
    target: IndexTarget,
    blob: { key: string; sha256: string; size: number },
    now: number,
    audit: AuditInTransaction | undefined,
    options: { fileDurable?: Promise<unknown> },
  ): (trx: Kysely<Database>) => Promise<IndexResult> {
    // On PostgreSQL the study's and series' counter rows are updated only once the file is durable:
    // an update locks its row until the commit, and every instance of the study, from any
    // association of any process, updates the same two rows, so locking them before the wait for
    // the file (an object store's PUT) would queue all of them behind each file in turn. SQLite
    // has one writer whichever the order.
    const countsLast = this.dialect === 'postgres';
    return async (trx: Kysely<Database>) => {
      const placed = await this.indexIn(trx, p, target, blob, now);
      if (!countsLast) await this.countIn(trx, p, placed, blob, now);
      const { result } = placed;
      // In the same transaction: no second commit (and fsync) per instance, and no row without its event.
      const event = audit?.(result);
      if (event) await trx.insertInto('audit_events').values(event).execute();
      markStoreStage('statements');
      await options.fileDurable;
      markStoreStage('durable');
      if (countsLast) await this.countIn(trx, p, placed, blob, now);
      return result;
    };
  }

  /** The creation time of the newest instance row (the recovery scan's bound), if any. */
  async newestInstanceCreated(): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('instances')
      .select((eb) => eb.fn.max('created').as('newest'))
      .executeTakeFirst();
    return row?.newest == null ? undefined : Number(row.newest);
  }

  /** Those of `keys` that some instance row references. */
  async referencedKeys(keys: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    if (keys.length === 0) return found;
    const rows = await this.db
      .selectFrom('instances')
      .select('blob_key')
      .distinct()
      .where('blob_key', 'in', keys)
      .execute();
    for (const row of rows) found.add(row.blob_key);
    return found;
  }

  /** The blob keys of instance rows created at or after `since` (the recovery scan's check). */
  async keysCreatedSince(since: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('instances')
      .select('blob_key')
      .where('created', '>=', since)
      .execute();
    return rows.map((row) => row.blob_key);
  }

  /**
   * study/add: an empty UPLOADING study an upload will fill (its first file's attributes replace
   * the ones given here); the group's study with that UID when there is one already.
   */
  async addEmptyStudy(
    target: IndexTarget,
    studyUid: string,
    fields: Partial<Record<StudyEditableField, string>>,
    now: number,
  ): Promise<{ uuid: string; created: boolean }> {
    const text = (f: StudyEditableField) => fields[f] ?? '';
    const inserted = await this.db
      .insertInto('studies')
      .values({
        uuid: randomUUID(),
        account_id: target.accountId,
        namespace_id: target.namespaceId,
        study_uid: studyUid,
        patient_name: text('patient_name'),
        patient_name_key: searchKey(text('patient_name')),
        patientid: text('patientid'),
        patientid_key: searchKey(text('patientid')),
        patient_sex: text('patient_sex'),
        patient_birth_date: text('patient_birth_date'),
        patient_age: '',
        accession_number: text('accession_number'),
        study_description: text('study_description'),
        study_description_key: searchKey(text('study_description')),
        study_date: text('study_date'),
        study_time: text('study_time'),
        modality: '',
        referring_physician: text('referring_physician'),
        referring_physician_key: searchKey(text('referring_physician')),
        source_ae_title: '',
        destination_ae_title: '',
        institution_name: '',
        study_status: STUDY_STATUS.uploading,
        created: now,
        updated: now,
      })
      .onConflict((oc) => oc.columns(['namespace_id', 'study_uid']).doNothing())
      .returning('uuid')
      .executeTakeFirst();
    if (inserted) return { uuid: inserted.uuid, created: true };
    const existing = await this.db
      .selectFrom('studies')
      .select('uuid')
      .where('namespace_id', '=', target.namespaceId)
      .where('study_uid', '=', studyUid)
      .executeTakeFirstOrThrow();
    return { uuid: existing.uuid, created: false };
  }

  /**
   * study/sync: the uploader sent `sent` images into the study. One it was filling becomes listed:
   * NEW when the group holds at least that many, else INCOMPLETE; a study in any other state keeps it.
   */
  async syncUpload(
    studyUuid: string,
    sent: number,
    now: number,
  ): Promise<{ imageCount: number; status: string }> {
    // One statement, so images still arriving cannot slip between the count and the new state.
    const updated = await this.db
      .updateTable('studies')
      .set({
        study_status: sql<string>`case when image_count >= ${sent} then ${STUDY_STATUS.new} else ${STUDY_STATUS.incomplete} end`,
        updated: now,
      })
      .where('uuid', '=', studyUuid)
      .where('study_status', 'in', [STUDY_STATUS.uploading, STUDY_STATUS.incomplete])
      .returning(['image_count', 'study_status'])
      .executeTakeFirst();
    const row =
      updated ??
      (await this.db
        .selectFrom('studies')
        .select(['image_count', 'study_status'])
        .where('uuid', '=', studyUuid)
        .executeTakeFirstOrThrow());
    return { imageCount: Number(row.image_count), status: row.study_status };
  }

  /** The study and series an instance with this SOP Instance UID is already indexed under, if any. */
  async findInstance(
    namespaceId: string,
    studyUid: string,
    sopInstanceUid: string,
  ): Promise<{ studyUuid: string; seriesUuid: string } | undefined> {
    const { rows } = await this.instanceInStudy.execute(this.db, { namespaceId, studyUid, sopInstanceUid });
    return rows[0];
  }

  /**
   * The study, series and instance rows (each created on first sight); countIn adds the instance to
   * the counters. `trx` holds the transaction's connection; the compiled statements go to SQLite
   * directly when they can.
   */
  private async indexIn(
    trx: Kysely<Database>,
    p: ParsedInstance,
    target: IndexTarget,
    blob: { key: string; sha256: string; size: number },
    now: number,
  ): Promise<Placed> {
    const {
      uuid: studyUuid,
      created: studyCreated,
      modality: knownModalities,
    } = await this.ensureStudy(trx, p, target, now);
    const { uuid: seriesUuid, created: seriesCreated } = await this.ensureSeries(trx, p, studyUuid);
    const inserted = await this.insertInstance.execute(this.direct ?? trx, {
      uuid: randomUUID(),
      study_uuid: studyUuid,
      series_uuid: seriesUuid,
      sop_instance_uid: p.sopInstanceUid,
      sop_class_uid: p.sopClassUid,
      instance_number: p.instanceNumber,
      transfer_syntax: p.transferSyntaxUid,
      rows: p.rows,
      columns: p.columns,
      frames: p.numberOfFrames,
      blob_key: blob.key,
      size: blob.size,
      sha256: blob.sha256,
      created: now,
    });
    const duplicate = Number(inserted.numAffectedRows ?? 0) === 0;
    return { result: { studyUuid, seriesUuid, duplicate, studyCreated }, seriesCreated, knownModalities };
  }

  /** The series' and study's counters and the study's modalities, for an instance indexIn placed. */
  private async countIn(
    trx: Kysely<Database>,
    p: ParsedInstance,
    { result: { studyUuid, seriesUuid, duplicate }, seriesCreated, knownModalities }: Placed,
    blob: { size: number },
    now: number,
  ): Promise<void> {
    if (duplicate) return;
    const newModality = !!p.modality && !knownModalities.split('\\').includes(p.modality.toUpperCase());
    if (this.dialect === 'postgres' && !newModality) {
      await this.countIntoSeriesAndStudy.execute(trx, {
        seriesUuid,
        studyUuid,
        size: blob.size,
        newSeries: seriesCreated ? 1 : 0,
        updated: now,
      });
      return;
    }
    await this.countIntoSeries.execute(this.direct ?? trx, { seriesUuid, size: blob.size });
    let modality: string | undefined;
    let modalityBits = 0;
    if (p.modality && newModality) {
      await trx
        .insertInto('study_modalities')
        .values({ study_uuid: studyUuid, modality: p.modality.toUpperCase() })
        .onConflict((oc) => oc.columns(['study_uuid', 'modality']).doNothing())
        .execute();
      const rows = await trx
        .selectFrom('study_modalities')
        .select('modality')
        .where('study_uuid', '=', studyUuid)
        .orderBy('modality')
        .execute();
      modality = rows.map((r) => r.modality).join('\\');
      modalityBits = modalityMask(rows.map((r) => r.modality));
    }
    if (modality !== undefined) {
      await trx
        .updateTable('studies')
        .set({
          ...studyCounters(blob.size, seriesCreated ? 1 : 0, now),
          modality,
          modality_bits: modalityBits,
        })
        .where('uuid', '=', studyUuid)
        .execute();
    } else {
      await this.countIntoStudy.execute(this.direct ?? trx, {
        studyUuid,
        size: blob.size,
        newSeries: seriesCreated ? 1 : 0,
        updated: now,
      });
    }
  }

  private async ensureStudy(trx: Kysely<Database>, p: ParsedInstance, target: IndexTarget, now: number) {
    const existing = (
      await this.studyByUid.execute(this.direct ?? trx, {
        namespaceId: target.namespaceId,
        studyUid: p.studyInstanceUid,
      })
    ).rows[0];
    if (existing) {
      // study/add made it empty: its first file's attributes are the study's, not what was typed.
      if (existing.study_status === STUDY_STATUS.uploading && Number(existing.image_count) === 0)
        await trx.updateTable('studies').set(studyAttributes(p)).where('uuid', '=', existing.uuid).execute();
      return { uuid: existing.uuid, created: false, modality: existing.modality };
    }
    const uuid = randomUUID();
    const inserted = await trx
      .insertInto('studies')
      .values({
        uuid,
        account_id: target.accountId,
        namespace_id: target.namespaceId,
        study_uid: p.studyInstanceUid,
        ...studyAttributes(p),
        modality: '',
        source_ae_title: target.sourceAeTitle ?? '',
        destination_ae_title: target.destinationAeTitle ?? '',
        study_status: target.retrieving ? STUDY_STATUS.retrieving : STUDY_STATUS.new,
        created: now,
        updated: now,
      })
      .onConflict((oc) => oc.columns(['namespace_id', 'study_uid']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { uuid, created: true, modality: '' };
    // Another process created it between our read and our insert (PostgreSQL, concurrent senders).
    const winner = await trx
      .selectFrom('studies')
      .select(['uuid', 'modality'])
      .where('namespace_id', '=', target.namespaceId)
      .where('study_uid', '=', p.studyInstanceUid)
      .executeTakeFirstOrThrow();
    return { uuid: winner.uuid, created: false, modality: winner.modality };
  }

  private async ensureSeries(trx: Kysely<Database>, p: ParsedInstance, studyUuid: string) {
    const existing = (
      await this.seriesByUid.execute(this.direct ?? trx, { studyUuid, seriesUid: p.seriesInstanceUid })
    ).rows[0];
    if (existing) return { uuid: existing.uuid, created: false };
    const uuid = randomUUID();
    const inserted = await trx
      .insertInto('series')
      .values({
        uuid,
        study_uuid: studyUuid,
        series_uid: p.seriesInstanceUid,
        modality: p.modality,
        series_number: p.seriesNumber,
        series_description: p.seriesDescription,
        body_part: p.bodyPart,
        image_count: 0,
        size: 0,
      })
      .onConflict((oc) => oc.columns(['study_uuid', 'series_uid']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { uuid, created: true };
    // Another transaction created it between our read and our insert (PostgreSQL: another
    // association or process receiving the same new series); ours waited for its commit.
    const winner = await trx
      .selectFrom('series')
      .select('uuid')
      .where('study_uuid', '=', studyUuid)
      .where('series_uid', '=', p.seriesInstanceUid)
      .executeTakeFirstOrThrow();
    return { uuid: winner.uuid, created: false };
  }
}
