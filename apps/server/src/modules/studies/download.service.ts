import { buildDicomdir } from '../../dicom/dicomdir.js';
import type { DicomdirStudy } from '../../dicom/dicomdir.js';
import { DomainError, notFound } from '../../domain/errors.js';
import type { Caller } from '../../policies/index.js';
import { requireStudy } from '../../policies/index.js';
import type { DicomwebRepository } from '../../repositories/dicomweb.repository.js';
import type { StudiesRepository, StudyRow } from '../../repositories/studies.repository.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { isoLength } from '../../storage/iso-stream.js';
import type { ZipEntry } from '../../storage/zip-stream.js';
import { zipLength } from '../../storage/zip-stream.js';
import { studyEvent, type AuditService } from '../../audit/audit.service.js';
import { deidentifiedArchive, type DeidentifyingProfile } from './deidentified-download.js';

export type DownloadBundle = 'dicom' | 'iso';

export interface DownloadTarget {
  row: StudyRow;
  /** Series UIDs to include; all when undefined. */
  seriesUids?: string[] | undefined;
}

export interface DownloadPlan {
  bundle: DownloadBundle;
  filename: string;
  entries: ZipEntry[];
  /** Exact archive length, for Content-Length (progress in the browser). */
  length: number;
  /** A de-identified download: instances left out, by reason (the web app tells the user). */
  refused?: { burnedIn: number; unreadable: number };
}

export interface DownloadDeps {
  studies: StudiesRepository;
  dicomweb: DicomwebRepository;
  blobs: BlobStore;
  audit: AuditService;
  /** The account's profile bound to its secret (privacy's Deidentifier); INVALID_FIELD `field` if it has none. */
  deidentifier: { bind(accountId: string, profileId: string, field: string): Promise<DeidentifyingProfile> };
}

const DOWNLOAD = ['study_download'] as const;
const DOWNLOAD_ISO = ['study_download', 'study_download_iso'] as const;
const DOWNLOAD_ANONYMIZED = ['study_download_anonymized'] as const;

/** At most this many studies in one multi-select archive (the bundle limit of the inbox). */
export { MAX_DOWNLOAD_STUDIES } from '@imaging-inbox/contract';

/**
 * Plans a download (ZIP, or an ISO 9660 image with `bundle=iso`): checks permissions on every study first (a multi-select downloads only
 * when every study grants it), lays out `DICOM/...` paths and a DICOMDIR, and returns lazily
 * opened entries; nothing is read from disk until the archive is streamed.
 */
export class DownloadService {
  constructor(private readonly deps: DownloadDeps) {}

  async plan(caller: Caller, targets: DownloadTarget[], bundle: DownloadBundle): Promise<DownloadPlan> {
    const permissions = bundle === 'iso' ? DOWNLOAD_ISO : DOWNLOAD;
    for (const { row } of targets) requireStudy(caller, row, { permissions });
    return this.build(targets, bundle, { userId: caller.user.uuid, ip: caller.ip });
  }

  /**
   * A de-identified download (anonymize=1, issue 33): study_download_anonymized on every study
   * (study_download is not needed: a role may give de-identified copies only), the account's profile
   * `anonymizationId` (INVALID_FIELD `anonymization_id` when the studies' account has no such
   * profile), every copy made before the first byte. The audit names the profile and what was left out.
   */
  async planDeidentified(
    caller: Caller,
    targets: DownloadTarget[],
    bundle: DownloadBundle,
    anonymizationId: string,
  ): Promise<DownloadPlan> {
    const permissions =
      bundle === 'iso' ? [...DOWNLOAD_ANONYMIZED, 'study_download_iso' as const] : DOWNLOAD_ANONYMIZED;
    for (const { row } of targets) requireStudy(caller, row, { permissions });
    const accounts = new Set(targets.map((t) => t.row.account_id));
    if (accounts.size !== 1) throw new DomainError('INVALID_FIELD', 'anonymization_id');
    const bound = await this.deps.deidentifier.bind([...accounts][0]!, anonymizationId, 'anonymization_id');
    const archive = await deidentifiedArchive(this.deps, targets, bound);
    for (const { row, seriesUids } of targets) {
      await this.deps.audit.record(
        studyEvent(caller, row, 'STUDY_DOWNLOAD', {
          bundle,
          series: seriesUids ?? 'all',
          deidentified: { profile: bound.profile.uuid, name: bound.profile.name },
          instances: archive.instances,
          bytes: archive.bytes,
          refused: { burned_in: archive.refusedBurnedIn, unreadable: archive.refusedUnreadable },
        }),
      );
    }
    return {
      bundle,
      filename: archiveName(
        targets.map((t) => t.row),
        bundle === 'iso' ? 'iso' : 'zip',
        true,
      ),
      entries: archive.entries,
      length: bundle === 'iso' ? isoLength(archive.entries) : zipLength(archive.entries),
      refused: { burnedIn: archive.refusedBurnedIn, unreadable: archive.refusedUnreadable },
    };
  }

  /**
   * The archive of studies someone outside the account was given (an e-mailed study link, whose
   * grant the caller checked): same layout and audit, the audit naming how it was reached.
   */
  planForRecipient(row: StudyRow, via: Record<string, unknown>, ip: string): Promise<DownloadPlan> {
    return this.build([{ row }], 'dicom', { userId: null, ip, via });
  }

  private async build(
    targets: DownloadTarget[],
    bundle: DownloadBundle,
    actor: { userId: string | null; ip: string; via?: Record<string, unknown> },
  ): Promise<DownloadPlan> {
    const multi = targets.length > 1;
    const entries: ZipEntry[] = [];
    const dirStudies: DicomdirStudy[] = [];
    const stored: { key: string; size: number }[] = [];
    const audits: { row: StudyRow; instances: number; bytes: number; series: string[] | 'all' }[] = [];
    for (const [studyIndex, { row, seriesUids }] of targets.entries()) {
      const series = await this.deps.dicomweb.seriesOfStudy(row.uuid, {});
      const wanted = seriesUids ? new Set(seriesUids) : undefined;
      if (wanted) {
        const known = new Set(series.map((s) => s.series_uid));
        const unknown = [...wanted].filter((uid) => !known.has(uid));
        if (unknown.length) throw notFound('series');
      }
      const instances = await this.deps.dicomweb.instances(row.uuid, {});
      const dirStudy: DicomdirStudy = {
        studyUid: row.study_uid,
        patientName: row.patient_name,
        patientId: row.patientid,
        patientBirthDate: row.patient_birth_date,
        patientSex: row.patient_sex,
        studyDate: row.study_date,
        studyTime: row.study_time,
        studyDescription: row.study_description,
        accessionNumber: row.accession_number,
        series: [],
      };
      let count = 0;
      let bytes = 0;
      for (const s of series) {
        if (wanted && !wanted.has(s.series_uid)) continue;
        const files = instances.filter((i) => i.series_uuid === s.uuid);
        if (!files.length) continue;
        const folder = multi
          ? ['DICOM', String(studyIndex + 1), String(dirStudy.series.length + 1)]
          : ['DICOM', String(dirStudy.series.length + 1)];
        dirStudy.series.push({
          seriesUid: s.series_uid,
          modality: s.modality,
          seriesNumber: s.series_number,
          seriesDescription: s.series_description,
          images: files.map((file, n) => {
            const fileId = [...folder, String(n + 1)];
            const key = file.blob_key;
            const size = Number(file.size);
            entries.push({
              name: fileId.join('/'),
              size,
              // Shorter than indexed: zipStream reports the mismatch.
              open: () => this.deps.blobs.readStream(key, { start: 0, end: size - 1 }),
            });
            stored.push({ key, size });
            count += 1;
            bytes += Number(file.size);
            return {
              fileId,
              sopClassUid: file.sop_class_uid,
              sopInstanceUid: file.sop_instance_uid,
              transferSyntax: file.transfer_syntax,
              instanceNumber: file.instance_number,
            };
          }),
        });
      }
      dirStudies.push(dirStudy);
      audits.push({ row, instances: count, bytes, series: seriesUids ?? 'all' });
    }
    if (!entries.length) throw notFound('instances');
    await assertFilesPresent(this.deps.blobs, stored);

    const dicomdir = buildDicomdir(dirStudies);
    entries.unshift({ name: 'DICOMDIR', size: dicomdir.byteLength, open: () => once(dicomdir) });
    for (const a of audits) {
      await this.deps.audit.record(
        studyEvent(actor, a.row, 'STUDY_DOWNLOAD', {
          bundle,
          series: a.series,
          instances: a.instances,
          bytes: a.bytes,
          ...(actor.via ? { via: actor.via } : {}),
        }),
      );
    }
    return {
      bundle,
      filename: archiveName(
        targets.map((t) => t.row),
        bundle === 'iso' ? 'iso' : 'zip',
      ),
      entries,
      // The same files either way: an ISO 9660 image (a CD) or a ZIP, both with the DICOMDIR.
      length: bundle === 'iso' ? isoLength(entries) : zipLength(entries),
    };
  }
}

/**
 * A missing or truncated blob would surface mid-stream as a broken archive; checking sizes first
 * turns it into a clean error before any byte is sent (a stat per file, no reads).
 */
async function assertFilesPresent(blobs: BlobStore, files: { key: string; size: number }[]): Promise<void> {
  for (let i = 0; i < files.length; i += 64) {
    const batch = files.slice(i, i + 64);
    const sizes = await Promise.all(batch.map(async (f) => (await blobs.stat(f.key))?.size ?? -1));
    if (sizes.some((size, j) => size !== batch[j]!.size))
      throw new DomainError('INTERNAL', 'stored file missing');
  }
}

// eslint-disable-next-line @typescript-eslint/require-await
async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** A file name with no PHI and no characters a Content-Disposition header could trip on. */
function archiveName(rows: StudyRow[], extension: 'zip' | 'iso', deidentified = false): string {
  const [first] = rows;
  // A de-identified archive does not carry the original Study Instance UID, even in its name.
  if (deidentified)
    return `deidentified_${new Date().toISOString().slice(0, 10).replace(/-/g, '')}.${extension}`;
  if (rows.length === 1 && first) return `study_${first.study_uid.replace(/[^0-9.]/g, '')}.${extension}`;
  return `studies_${rows.length}_${new Date().toISOString().slice(0, 10).replace(/-/g, '')}.${extension}`;
}
