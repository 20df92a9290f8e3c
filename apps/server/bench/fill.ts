import { modalityMask } from '@imaging-inbox/contract';
import type { Insertable, Kysely } from 'kysely';
import type { Db } from '../src/db/dialect.js';
import type { Database, StudyTable } from '../src/db/schema.js';
import { studySpecAt } from '../src/dicom/generate.js';
import type { StudySpec } from '../src/dicom/generate.js';
import { searchKey } from '../src/repositories/study-search.sql.js';

/** Rows per multi-row INSERT (≈ 33 parameters each, well under SQLite's 32,766 and PostgreSQL's 65,535). */
const BATCH = 500;
/** Batches per transaction: one commit per 50,000 studies. */
const BATCHES_PER_TX = 100;
const TWO_YEARS_MS = 730 * 86_400_000;
const TAGS = ['follow-up', 'urgent', 'teaching', 'second-opinion'];

export interface FillTarget {
  accountId: string;
  namespaceIds: string[];
}

export interface FillOptions {
  count: number;
  seed: number;
  now: Date;
  onProgress?: (done: number) => void;
}

/** The study a benchmark index maps to: its spec plus the modalities stored for it. */
export function benchStudy(
  seed: number,
  index: number,
  now: Date,
): { spec: StudySpec; modalities: string[] } {
  const spec = studySpecAt(seed, index, now);
  // One study in twenty also carries a structured report, as real archives do.
  const modalities = index % 20 === 7 ? [spec.modality, 'SR'].sort() : [spec.modality];
  return { spec, modalities };
}

function studyRow(
  target: FillTarget,
  index: number,
  opts: FillOptions,
): Insertable<StudyTable> & { uuid: string } {
  const { spec, modalities } = benchStudy(opts.seed, index, opts.now);
  // Created times spread evenly over the two years before now, newest first.
  const created = opts.now.getTime() - Math.floor((index * TWO_YEARS_MS) / Math.max(1, opts.count));
  const images = spec.series.reduce((sum, s) => sum + s.instanceCount, 0);
  return {
    uuid: benchUuid(index),
    account_id: target.accountId,
    namespace_id: target.namespaceIds[index % target.namespaceIds.length]!,
    study_uid: spec.studyInstanceUid,
    patient_name: spec.patientName,
    patient_name_key: searchKey(spec.patientName),
    patientid: spec.patientId,
    patientid_key: searchKey(spec.patientId),
    patient_sex: spec.patientSex,
    patient_birth_date: spec.patientBirthDate,
    patient_age: spec.patientAge,
    accession_number: spec.accessionNumber,
    study_description: spec.studyDescription,
    study_description_key: searchKey(spec.studyDescription),
    study_date: spec.studyDate,
    study_time: spec.studyTime,
    modality: modalities.join('\\'),
    modality_bits: modalityMask(modalities),
    referring_physician: spec.referringPhysician,
    referring_physician_key: searchKey(spec.referringPhysician),
    source_ae_title: 'BENCH_MODALITY',
    destination_ae_title: '',
    institution_name: spec.institutionName,
    image_count: images,
    series_count: spec.series.length,
    size: images * 530_000,
    star: index % 7 === 0 ? 1 : 0,
    study_status: 'NEW',
    created,
    updated: created,
  };
}

/**
 * A uuid-shaped, unique and deterministic id; random-looking in its leading digits so rows land
 * all over the primary-key index as real random uuids do.
 */
export function benchUuid(index: number): string {
  const mixed = (Math.imul(index + 1, 0x9e3779b1) >>> 0).toString(16).padStart(8, '0');
  const tail = index.toString(16).padStart(12, '0');
  return `${mixed}-be4c-4000-8000-${tail}`;
}

async function insertBatch(
  k: Kysely<Database>,
  target: FillTarget,
  from: number,
  to: number,
  opts: FillOptions,
) {
  const studies: (Insertable<StudyTable> & { uuid: string })[] = [];
  const modalities: { study_uuid: string; modality: string }[] = [];
  const tags: { study_uuid: string; tag: string }[] = [];
  const audit: Insertable<Database['audit_events']>[] = [];
  for (let index = from; index < to; index++) {
    const row = studyRow(target, index, opts);
    studies.push(row);
    audit.push(createdEvent(row));
    for (const modality of row.modality.split('\\')) modalities.push({ study_uuid: row.uuid, modality });
    if (index % 10 === 0) tags.push({ study_uuid: row.uuid, tag: TAGS[(index / 10) % TAGS.length]! });
  }
  await k.insertInto('studies').values(studies).execute();
  for (let i = 0; i < modalities.length; i += BATCH) {
    await k
      .insertInto('study_modalities')
      .values(modalities.slice(i, i + BATCH))
      .execute();
  }
  if (tags.length) await k.insertInto('study_tags').values(tags).execute();
  await k.insertInto('audit_events').values(audit).execute();
}

/**
 * The audit event a received study leaves (ingest's CREATE, by a peer: no user), so the archive has
 * the audit history its size brings: a search that read the account's or the no-user events in
 * place of the page's own took 190 ms a page on such a history and 1 ms on an empty audit log.
 */
function createdEvent(row: Insertable<StudyTable> & { uuid: string }): Insertable<Database['audit_events']> {
  return {
    at: row.created,
    user_id: null,
    account_id: row.account_id,
    action: 'CREATE',
    object_type: 'study',
    object_id: row.uuid,
    outcome: 'SUCCESS',
    detail: JSON.stringify({ source: 'dimse', calling_ae: row.source_ae_title }),
    ip: '127.0.0.1',
  };
}

/**
 * Inserts `count` index rows (studies, study_modalities, a few study_tags, each study's CREATE
 * audit event) straight into the database, `BATCH` rows per statement and `BATCHES_PER_TX`
 * statements per transaction, so at most one batch of rows is in memory at a time. No DICOM files:
 * a search benchmark needs none.
 */
export async function fillStudies(db: Db, target: FillTarget, opts: FillOptions): Promise<void> {
  const perTx = BATCH * BATCHES_PER_TX;
  for (let txStart = 0; txStart < opts.count; txStart += perTx) {
    const txEnd = Math.min(opts.count, txStart + perTx);
    await db.kysely.transaction().execute(async (trx) => {
      for (let from = txStart; from < txEnd; from += BATCH) {
        await insertBatch(trx, target, from, Math.min(txEnd, from + BATCH), opts);
      }
    });
    opts.onProgress?.(txEnd);
  }
}
