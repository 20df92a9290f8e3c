import { createHash } from 'node:crypto';
import path from 'node:path';
import { IMPLEMENTATION_CLASS_UID } from '../dicom/write.js';
import { isRefusal } from '../domain/errors.js';
import type { DicomNodesRepository } from '../repositories/dicom-nodes.repository.js';
import type { IngestRepository } from '../repositories/ingest.repository.js';
import type { BlobCollector } from '../storage/blob-collector.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { IngestService } from './ingest.service.js';

/**
 * How far before the newest surviving index row a lost row's file may have been written: a file is
 * synced just before its row is stamped and queued for commit, so the gap is the commit queue's
 * wait (milliseconds, seconds under heavy load). Generous, because a file older than the bound is
 * never looked at again.
 */
export const RECOVERY_MARGIN_MS = 2 * 60_000;

const LOOKUP_BATCH = 500;

export interface RecoveryReport {
  /** Files were looked at if written at or after this time (epoch ms). */
  since: number;
  /** Blob directories changed since then, and the DICOM files in them written since then. */
  directories: number;
  files: number;
  /** Files with no index row that came in over C-STORE, indexed again through the ingest pipeline. */
  recovered: number;
  /** Files with no index row that came in over C-STORE from a node that is gone: left alone. */
  skipped: number;
  /** Files whose content does not match their name (a write cut short; never answered success). */
  partial: number;
  /**
   * Files with no index row that did not come in over C-STORE (an upload, STOW-RS, link upload or
   * edit cut off between its file and its synced index commit, so never answered success), or that
   * hold an instance already stored under other bytes.
   */
  unacknowledged: number;
  /**
   * Partial and unacknowledged files handed to the blob collector: removed now, or (written within
   * its grace period, which protects another process's ingest in progress) noted for its sweep.
   */
  removed: number;
  deferred: number;
  /**
   * Files received here whose content the ingest refuses: a dataset written ahead of its complete
   * parse (IngestService.mayStoreAhead), refused, and cut off by the stop before its removal.
   * Never answered success; removed.
   */
  refused: number;
  /** Index rows of the window whose file is missing (the design cannot produce them: reported only). */
  missingFiles: number;
  ms: number;
}

export interface RecoveryDeps {
  repo: IngestRepository;
  nodes: DicomNodesRepository;
  blobs: BlobStore;
  ingest: IngestService;
  /** Removes the debris the scan finds once no row references it and its grace period is over. */
  collector: BlobCollector;
  /** Our AE title, the destination AE of the recovered studies. */
  aeTitle: string;
  /**
   * Whether an acknowledged C-STORE's rows can be lost while its file survives: only on SQLite,
   * whose C-STORE commits skip the log sync. On PostgreSQL every acknowledgement waits for the
   * log flush, so the scan rebuilds nothing; it only hands this run's unreferenced files (written
   * but never acknowledged) to the collector, whose grace period spares the files other live
   * processes are still indexing.
   */
  rowsMayBeLost: boolean;
  log: (line: string) => void;
}

/**
 * After an unclean stop, finds received files whose index row was lost and indexes them again.
 *
 * C-STORE commits its index rows without waiting for the database log's sync (the file, synced
 * first, is the record of truth), so a power cut can lose the last rows while their files survive.
 * Lost commits are always the newest ones (a log is replayed in order up to its first missing
 * record), so only files written after both the crashed run's start and the newest surviving row
 * (less a margin) are candidates: the scan stats the blob directories (their modification time
 * says whether a file was added since) and reads only the recent files in the recent ones.
 * A candidate is re-indexed when no row references it and its meta header says it was received
 * here over C-STORE (our Implementation Class UID and a Source AE Title naming a registered node):
 * the ingest pipeline then finds the file already in place and writes the rows with an audit event
 * saying the instance was recovered. Other unreferenced files are left for the purge to judge.
 */
export class IngestRecovery {
  constructor(private readonly deps: RecoveryDeps) {}

  async scan(runStarted: number): Promise<RecoveryReport> {
    const started = Date.now();
    // Another process's rows say nothing about this run's lost ones: with several processes (on
    // PostgreSQL) the window is this run's whole life.
    const newest = this.deps.rowsMayBeLost ? await this.deps.repo.newestInstanceCreated() : undefined;
    // Whole milliseconds: file times have fractions, index times (bigint) do not.
    const since = Math.floor(Math.max(runStarted, (newest ?? 0) - RECOVERY_MARGIN_MS));
    const report: RecoveryReport = {
      since,
      directories: 0,
      files: 0,
      recovered: 0,
      skipped: 0,
      partial: 0,
      unacknowledged: 0,
      removed: 0,
      deferred: 0,
      refused: 0,
      missingFiles: 0,
      ms: 0,
    };
    // The blob store finds them through what changed since (for files: the directories' times).
    const { keys: candidates, examined } = await this.deps.blobs.writtenSince(since);
    report.directories = examined;
    report.files = candidates.length;
    const debris: string[] = [];
    for (let i = 0; i < candidates.length; i += LOOKUP_BATCH) {
      const batch = candidates.slice(i, i + LOOKUP_BATCH);
      const referenced = await this.deps.repo.referencedKeys(batch);
      for (const key of batch) {
        if (referenced.has(key)) continue;
        if (this.deps.rowsMayBeLost) await this.recover(key, report, debris);
        else {
          // Never acknowledged (no durable row), and perhaps another process's ingest under way.
          report.unacknowledged += 1;
          debris.push(key);
        }
      }
    }
    report.removed = await this.deps.collector.removeUnreferenced(debris);
    report.deferred = debris.length - report.removed;
    for (const key of await this.deps.repo.keysCreatedSince(since)) {
      if (!(await this.deps.blobs.exists(key))) {
        report.missingFiles += 1;
        this.deps.log(`recovery scan: index row points at missing file ${key}`);
      }
    }
    report.ms = Date.now() - started;
    return report;
  }

  /** Indexes a lost C-STORE row again; `debris` collects files no success was answered for. */
  private async recover(key: string, report: RecoveryReport, debris: string[]): Promise<void> {
    const bytes = await this.deps.blobs.read(key);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (`${sha256}.dcm` !== path.basename(key)) {
      report.partial += 1;
      debris.push(key);
      return;
    }
    const meta = readFileMeta(bytes);
    const receivedHere =
      meta.implementationClassUid === IMPLEMENTATION_CLASS_UID && meta.sourceAeTitle !== '';
    if (!receivedHere) {
      // Every other way in answers only after its index commit is synced: no row, no answer.
      report.unacknowledged += 1;
      debris.push(key);
      return;
    }
    const node = await this.deps.nodes.findByAeTitle(meta.sourceAeTitle);
    if (!node) {
      report.skipped += 1;
      return;
    }
    try {
      const result = await this.deps.ingest.ingestBytes(
        bytes,
        {
          accountId: node.account_id,
          namespaceId: node.namespace_id,
          sourceAeTitle: meta.sourceAeTitle,
          destinationAeTitle: this.deps.aeTitle,
        },
        {
          kind: 'recovery',
          userId: null,
          detail: {
            recovered: true,
            reason: 'index row lost in an unclean stop; indexed again from the stored file',
            calling_ae: meta.sourceAeTitle,
            blob_key: key,
          },
        },
        { sha256: Promise.resolve(sha256) },
      );
      if (result.duplicate) {
        report.unacknowledged += 1;
        debris.push(key);
      } else report.recovered += 1;
    } catch (error) {
      if (isRefusal(error)) {
        report.refused += 1;
        await this.deps.blobs.delete(key);
        this.deps.log(`recovery scan: removed ${key}, refused by the ingest: ${error.errorType}`);
        return;
      }
      report.skipped += 1;
      this.deps.log(`recovery scan: could not index ${key}: ${String(error)}`);
    }
  }
}

/** The two meta header values the scan needs, read from the explicit VR LE group 0002. */
export function readFileMeta(bytes: Uint8Array): { implementationClassUid: string; sourceAeTitle: string } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found = { implementationClassUid: '', sourceAeTitle: '' };
  if (buffer.length < 132 || buffer.toString('latin1', 128, 132) !== 'DICM') return found;
  let offset = 132;
  while (offset + 8 <= buffer.length && buffer.readUInt16LE(offset) === 0x0002) {
    const element = buffer.readUInt16LE(offset + 2);
    const vr = buffer.toString('latin1', offset + 4, offset + 6);
    const long = ['OB', 'OW', 'OF', 'SQ', 'UT', 'UN'].includes(vr);
    const length = long ? buffer.readUInt32LE(offset + 8) : buffer.readUInt16LE(offset + 6);
    const start = offset + (long ? 12 : 8);
    if (start + length > buffer.length) break;
    const value = () => buffer.toString('latin1', start, start + length).replace(/[\0 ]+$/, '');
    if (element === 0x0012) found.implementationClassUid = value();
    if (element === 0x0016) found.sourceAeTitle = value();
    offset = start + length;
  }
  return found;
}
