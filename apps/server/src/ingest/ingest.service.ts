import fsp from 'node:fs/promises';
import { DicomParseError, parseDicomHeader } from '../dicom/index.js';
import type { ParsedInstance } from '../dicom/index.js';
import { ApiError } from '../http/errors.js';
import type { IndexTarget, IngestRepository } from '../repositories/ingest.repository.js';
import type { AuditService } from '../services/audit.service.js';
import type { BlobCollector } from '../storage/blob-collector.js';
import type { FileBlobStore, TempFile } from '../storage/file-blob-store.js';

export interface IngestSource {
  /** upload, stow, cstore, link, retrieve, wrap */
  kind: string;
  userId: string | null;
  ip?: string | null;
}

export interface IngestResult {
  studyUuid: string;
  seriesUuid: string;
  duplicate: boolean;
  parsed: ParsedInstance;
}

export interface IngestDeps {
  repo: IngestRepository;
  blobs: FileBlobStore;
  collector: BlobCollector;
  audit: AuditService;
  now?: () => number;
}

/**
 * The single ingest pipeline (ARCHITECTURE.md rule 1): parse → validate → store the file durably →
 * index it in one transaction → audit. Every DICOM source calls `ingestTemp`. On any failure the
 * temp file is removed and no index row is left behind; success returns only once durable.
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
      parsed = parseDicomHeader(temp.bytes ?? (await fsp.readFile(temp.path)));
    } catch (error) {
      await this.deps.blobs.discard(temp);
      if (error instanceof DicomParseError) throw new ApiError(error.code, 412, error.detail);
      throw error;
    }
    const key = await this.deps.blobs.commit(temp);
    let result;
    try {
      result = await this.deps.repo.indexInstance(
        parsed,
        target,
        { key, sha256: temp.sha256, size: temp.size },
        this.now(),
      );
    } catch (error) {
      await this.removeIfUnreferenced(key);
      throw error;
    }
    if (result.duplicate) {
      // Same SOP Instance UID already stored; a different byte content must not linger unreferenced.
      await this.removeIfUnreferenced(key);
    } else {
      await this.deps.audit.record({
        userId: source.userId,
        accountId: target.accountId,
        action: result.studyCreated ? 'CREATE' : 'IMAGE_ADD',
        objectType: 'study',
        objectId: result.studyUuid,
        detail: { source: source.kind, sop_instance_uid: parsed.sopInstanceUid },
        ip: source.ip ?? null,
      });
    }
    return {
      studyUuid: result.studyUuid,
      seriesUuid: result.seriesUuid,
      duplicate: result.duplicate,
      parsed,
    };
  }

  private async removeIfUnreferenced(key: string): Promise<void> {
    await this.deps.collector.removeUnreferenced([key]);
  }
}
