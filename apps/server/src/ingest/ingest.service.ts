import { createHash } from 'node:crypto';
import fsp from 'node:fs/promises';
import { DicomParseError, isValidUid, parseArrivingHeader, readDicomHeader } from '../dicom/index.js';
import type { ParsedInstance } from '../dicom/index.js';
import { DomainError } from '../domain/errors.js';
import type { IndexResult, IndexTarget, IngestRepository } from '../repositories/ingest.repository.js';
import { studyEvent, type AuditService } from '../audit/audit.service.js';
import type { BlobCollector } from '../storage/blob-collector.js';
import { blobKey } from '../storage/blob-store.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { TempFile } from '../storage/blob-store.js';
import type { StoredInstance } from '../notifications/harvest-notifier.js';
import { markStoreStage } from '../metrics/store-stages.js';

export interface IngestSource {
  /** upload, stow, cstore, link, retrieve, wrap */
  kind: string;
  userId: string | null;
  ip?: string | null;
  /**
   * Set by a source that sends many instances in one session (a DICOM association): the studies it
   * has already audited. Their later instances add no event of their own; the first one of each
   * study writes one event (in its index transaction) that stands for the whole session.
   */
  auditedStudies?: Set<string>;
  /** Identifies the session in that event's detail (association id, calling AE). */
  session?: Record<string, string>;
  /** Extra facts for the audit event (e.g. the original file name of a wrapped file). */
  detail?: Record<string, unknown>;
  /**
   * The stored file is the record of truth (C-STORE): the index commit does not wait for its own
   * log sync, because the file is durable before the commit starts and the recovery scan
   * (`ingest/recovery-scan.ts`) indexes it again if a power cut loses the row.
   */
  fileIsRecord?: boolean;
}

export interface IngestResult {
  studyUuid: string;
  seriesUuid: string;
  duplicate: boolean;
  parsed: ParsedInstance;
}

export interface IngestDeps {
  repo: IngestRepository;
  blobs: BlobStore;
  collector: BlobCollector;
  audit: AuditService;
  /** Counts every newly stored instance and its bytes by source (metrics). */
  meter?: { ingested(source: string, bytes: number): void };
  /** Told about every newly stored instance (notifications); must not throw. */
  onStored?: (event: StoredInstance) => Promise<void>;
  now?: () => number;
  /** The most a deflated dataset may inflate to (UPLOAD_MAX_BYTES; dicom/inflate.ts adds a ratio). */
  maxInflatedBytes?: number;
}

/**
 * The single ingest pipeline (ARCHITECTURE.md rule 1): parse → validate → store the file durably →
 * index it and audit in one transaction. Every DICOM source calls `ingestTemp` (a body streamed to a
 * temp file) or `ingestBytes` (a Part-10 file in memory). On any failure nothing is left behind (no
 * file, no row); success returns only once file and rows are durable.
 */
export class IngestService {
  private readonly now: () => number;
  constructor(private readonly deps: IngestDeps) {
    this.now = deps.now ?? Date.now;
  }

  async ingestTemp(temp: TempFile, target: IndexTarget, source: IngestSource): Promise<IngestResult> {
    let parsed: ParsedInstance;
    try {
      if (temp.size === 0) throw new DicomParseError('FILE_CONTENT_EMPTY', 'empty body');
      parsed = await this.parse(temp.bytes ?? (await fsp.readFile(temp.path)));
    } catch (error) {
      await this.deps.blobs.discard(temp);
      throw asDomainError(error);
    }
    const key = await this.deps.blobs.commit(temp);
    return this.index(parsed, target, source, { key, sha256: temp.sha256, size: temp.size });
  }

  /**
   * A received file that is stored only as `rewrite` makes it (a request link's de-identification,
   * decision 0071): the received bytes are read, their temp file discarded, never committed, and
   * the rewritten file goes through ingestBytes. `rewrite` refuses by throwing a DomainError, and
   * then nothing is stored.
   */
  async ingestRewritten(
    temp: TempFile,
    target: IndexTarget,
    source: IngestSource,
    rewrite: (bytes: Uint8Array) => Promise<Uint8Array>,
  ): Promise<IngestResult> {
    let rewritten: Uint8Array;
    try {
      if (temp.size === 0) throw new DicomParseError('FILE_CONTENT_EMPTY', 'empty body');
      rewritten = await rewrite(temp.bytes ?? (await fsp.readFile(temp.path)));
    } catch (error) {
      throw asDomainError(error);
    } finally {
      await this.deps.blobs.discard(temp);
    }
    return this.ingestBytes(
      Buffer.from(rewritten.buffer, rewritten.byteOffset, rewritten.byteLength),
      target,
      source,
    );
  }

  /**
   * A whole Part-10 file held in memory (a received C-STORE dataset behind its header). An instance
   * already indexed under its study is answered as a duplicate before any byte is written; otherwise
   * the file goes straight under its content key (BlobStore.storeBytes), then the index.
   * `sha256`, when given, is the bytes' digest, possibly still being computed on another thread: the
   * header is parsed and the duplicate looked up meanwhile. `storedAhead` is the file already being
   * written (mayStoreAhead said yes): should the complete file fail to parse or turn out a
   * duplicate after all, it is removed again once written, unless something references it.
   */
  async ingestBytes(
    bytes: Buffer,
    target: IndexTarget,
    source: IngestSource,
    options: { sha256?: Promise<string>; storedAhead?: Promise<string> } = {},
  ): Promise<IngestResult> {
    let parsed: ParsedInstance;
    let existing: { studyUuid: string; seriesUuid: string } | undefined;
    try {
      try {
        parsed = await this.parse(bytes);
      } catch (error) {
        throw asDomainError(error);
      }
      // Written ahead, a duplicate is told by the index's insert (which then removes the file unless
      // something references it); looking it up here again would only delay the answer.
      existing = options.storedAhead
        ? undefined
        : await this.deps.repo.findInstance(
            target.namespaceId,
            parsed.studyInstanceUid,
            parsed.sopInstanceUid,
          );
    } catch (error) {
      await this.discardAhead(options.storedAhead);
      throw error;
    }
    if (existing) {
      await this.discardAhead(options.storedAhead);
      return { ...existing, duplicate: true, parsed };
    }
    markStoreStage('parsed');
    const sha256 = options.sha256 ? await options.sha256 : createHash('sha256').update(bytes).digest('hex');
    // The file's write and sync run on a writer thread while the index statements run here; the
    // index transaction commits only once the file is durable (IngestRepository.indexInstance).
    const stored = options.storedAhead ?? this.deps.blobs.storeBytes(bytes, sha256);
    // Observed by the index; a rejection that comes before the index awaits it is not unhandled.
    stored.catch(() => undefined);
    const key = blobKey(sha256);
    return this.index(parsed, target, source, { key, sha256, size: bytes.byteLength }, stored);
  }

  /**
   * Whether a dataset still arriving (its first part, `prefix`) may be written under its key as soon
   * as it is complete, before ingestBytes looks at it: its header reads up to the pixel data and
   * names an instance the target does not hold yet. Saves the answer a hand-over between threads;
   * the rare dataset that passes here and fails later costs a write and a removal.
   */
  async mayStoreAhead(prefix: Uint8Array, target: IndexTarget): Promise<boolean> {
    const uids = parseArrivingHeader(prefix);
    if (!uids || invalidUidOf(uids) !== undefined) return false;
    const existing = await this.deps.repo.findInstance(
      target.namespaceId,
      uids.studyInstanceUid,
      uids.sopInstanceUid,
    );
    return existing === undefined;
  }

  /**
   * The header; a deflated dataset is inflated off the main thread, within the ceiling. Its UIDs
   * must be PS3.5 UIDs: they become DICOMweb paths and file-set IDs, and one like `../x`, `1.2/3`
   * or 10,000 characters would be stored but never reached again.
   */
  private async parse(bytes: Uint8Array): Promise<ParsedInstance> {
    const parsed = await readDicomHeader(bytes, this.deps.maxInflatedBytes ?? Number.MAX_SAFE_INTEGER);
    refuseInvalidUids(parsed);
    return parsed;
  }

  private async discardAhead(storedAhead: Promise<string> | undefined): Promise<void> {
    const key = await storedAhead?.catch(() => undefined);
    if (key) await this.deps.collector.discardWritten(key);
  }

  private async index(
    parsed: ParsedInstance,
    target: IndexTarget,
    source: IngestSource,
    blob: { key: string; sha256: string; size: number },
    fileDurable?: Promise<unknown>,
  ): Promise<IngestResult> {
    let result: IndexResult;
    try {
      result = await this.deps.repo.indexInstance(
        parsed,
        target,
        blob,
        this.now(),
        (indexed) => this.auditEvent(indexed, parsed, target, source),
        { syncCommit: !source.fileIsRecord, fileDurable },
      );
    } catch (error) {
      // A failed index may not have waited for the write: let it finish before judging the file.
      await fileDurable?.catch(() => undefined);
      await this.deps.collector.discardWritten(blob.key);
      throw error;
    }
    if (result.duplicate) {
      // Same SOP Instance UID already stored; a different byte content must not linger unreferenced.
      await this.deps.collector.discardWritten(blob.key);
    } else {
      this.deps.meter?.ingested(source.kind, blob.size);
      source.auditedStudies?.add(result.studyUuid);
      await this.deps.onStored?.({
        studyUuid: result.studyUuid,
        studyCreated: result.studyCreated,
        target,
        source,
      });
    }
    return {
      studyUuid: result.studyUuid,
      seriesUuid: result.seriesUuid,
      duplicate: result.duplicate,
      parsed,
    };
  }

  private auditEvent(result: IndexResult, parsed: ParsedInstance, target: IndexTarget, source: IngestSource) {
    if (result.duplicate || source.auditedStudies?.has(result.studyUuid)) return undefined;
    return this.deps.audit.row(
      studyEvent(
        source,
        { uuid: result.studyUuid, account_id: target.accountId },
        result.studyCreated ? 'CREATE' : 'IMAGE_ADD',
        {
          ...source.detail,
          source: source.kind,
          ...(source.session ?? {}),
          // With a session, the first instance of the study it brought; later ones share this event.
          sop_instance_uid: parsed.sopInstanceUid,
        },
      ),
    );
  }
}

const INSTANCE_UIDS = [
  ['studyInstanceUid', 'StudyInstanceUID'],
  ['seriesInstanceUid', 'SeriesInstanceUID'],
  ['sopInstanceUid', 'SOPInstanceUID'],
] as const;

type InstanceUids = Partial<Record<(typeof INSTANCE_UIDS)[number][0], string>>;

/** The keyword of the first UID present that is not a PS3.5 UID, if any. */
function invalidUidOf(uids: InstanceUids): string | undefined {
  return INSTANCE_UIDS.find(([field]) => uids[field] !== undefined && !isValidUid(uids[field]))?.[1];
}

function refuseInvalidUids(parsed: InstanceUids): void {
  const keyword = invalidUidOf(parsed);
  if (keyword !== undefined) throw new DicomParseError('INVALID_UID', keyword);
}

function asDomainError(error: unknown): unknown {
  if (error instanceof DicomParseError) return new DomainError(error.code, error.detail);
  return error;
}
