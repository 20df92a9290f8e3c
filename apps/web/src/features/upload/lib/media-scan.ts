import { isUploadCandidate } from '../../../lib/run-queue';
import { blobSource, streamSource, type ByteSource } from './byte-source';
import { readDicomHeader } from './dicom-header';
import { MAX_DICOMDIR_BYTES, planByDicomdir } from './dicomdir';
import { isDocument } from './document-files';
import type { MediaProblem, MediaProblemReason, MediaSource } from './media-source';
import type { ScanResult } from './studies';
import {
  checkReadable,
  entryBlob,
  entryDataStart,
  entryStream,
  looksLikeZip,
  readZipEntries,
  ZIP_STORED,
  ZipError,
  type ZipEntry,
} from './zip-reader';

export type { MediaProblem, MediaProblemReason, MediaSource };

/** A picked or dropped file and its path in the selection (`CD/DICOM/IMG1`, or just its name). */
export interface PickedFile {
  file: File;
  path: string;
}

const PROGRESS_EVERY = 25;

/**
 * ZIPs inside ZIPs are opened down to this many archives deep (the picked ZIP is the first); a ZIP
 * found deeper is named as a problem, so a crafted archive cannot recurse without end.
 */
export const MAX_ZIP_DEPTH = 3;

/**
 * A deflated ZIP inside a ZIP must be inflated whole before its directory can be read; one larger
 * than this is refused rather than filling the browser's memory and disk. A stored one is a slice.
 */
export const MAX_INFLATED_ZIP_BYTES = 2 * 1024 ** 3;

export interface ScanOptions {
  /** Overrides MAX_INFLATED_ZIP_BYTES (tests use a small one). */
  maxInflatedZipBytes?: number;
}

const zipReason = (error: unknown): MediaProblemReason => {
  if (!(error instanceof ZipError)) return 'damaged-zip';
  if (error.code === 'ENCRYPTED') return 'encrypted';
  if (error.code === 'UNSUPPORTED_METHOD') return 'unsupported-method';
  if (error.code === 'SPLIT') return 'split-zip';
  return 'damaged-zip';
};

/** Archive entries that are not files of the media: folders and macOS resource forks. */
const isMediaEntry = (entry: ZipEntry) => !entry.directory && !entry.path.split('/').includes('__MACOSX');
const baseName = (path: string) => ({ name: path.slice(path.lastIndexOf('/') + 1) });

async function readWhole(blob: Blob): Promise<Uint8Array> {
  if (blob.size > MAX_DICOMDIR_BYTES) throw new Error('DICOMDIR too large to read');
  return new Uint8Array(await blob.arrayBuffer());
}

/**
 * Reads the headers of a selection: plain files, ZIP archives (found by their signature, also
 * inside a picked folder or inside another ZIP) entry by entry, and media with a DICOMDIR, where
 * only the files it lists are read. Only header prefixes are read; a ZIP is read from its central
 * directory and each entry sliced (stored) or inflated as a prefix (deflated). Parsed files are
 * numbered in `sources`.
 */
export async function scanMedia(
  picked: readonly PickedFile[],
  onProgress: (done: number, total: number) => void = () => undefined,
  options: ScanOptions = {},
): Promise<ScanResult> {
  const maxInflated = options.maxInflatedZipBytes ?? MAX_INFLATED_ZIP_BYTES;
  const result: ScanResult = {
    fileCount: picked.length,
    sources: [],
    parsed: [],
    unreadable: 0,
    problems: [],
    documents: [],
  };
  let done = 0;
  let total = picked.length;
  const step = () => {
    done++;
    if (done % PROGRESS_EVERY === 0) onProgress(done, total);
  };
  const found = async (source: MediaSource, bytes: ByteSource): Promise<boolean> => {
    const header = await readDicomHeader(bytes);
    if (!header) return false;
    result.parsed.push({ index: result.sources.length, header });
    result.sources.push(source);
    return true;
  };

  const plan = await planByDicomdir(
    picked.map((p) => p.path),
    (index) => readWhole(picked[index]!.file),
  );
  result.problems.push(...plan.missing.map((path) => ({ path, reason: 'missing' as const })));

  for (let pick = 0; pick < picked.length; pick++) {
    const { file, path } = picked[pick]!;
    if (plan.keep[pick] && isUploadCandidate(file)) {
      try {
        if (!(await found({ kind: 'file', pick, path }, blobSource(file)))) {
          const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
          if (looksLikeZip(head)) await scanZip(pick, file, path, 1);
          else if (isDocument(file)) result.documents.push({ kind: 'file', pick, path });
        }
      } catch (error) {
        result.unreadable++;
        if (error instanceof ZipError) result.problems.push({ path, reason: zipReason(error) });
      }
    }
    step();
  }
  onProgress(total, total);
  return result;

  /**
   * Scans the entries of `archive`, found at `zipPath` in the selection under the pick `pick`:
   * the picked file itself (depth 1) or a ZIP inside it (`nested`, deeper).
   */
  async function scanZip(pick: number, archive: Blob, zipPath: string, depth: number): Promise<void> {
    const nested = depth > 1;
    const entries = (await readZipEntries(archive)).filter(isMediaEntry);
    total += entries.length;
    // The archive stands for its entries in the file count.
    result.fileCount += entries.length - 1;
    const entryPlan = await planByDicomdir(
      entries.map((e) => e.path),
      async (index) => {
        const entry = entries[index]!;
        if (entry.size > MAX_DICOMDIR_BYTES) throw new Error('DICOMDIR too large to read');
        return readWhole(await entryBlob(archive, entry, await entryDataStart(archive, entry)));
      },
    );
    result.problems.push(
      ...entryPlan.missing.map((path) => ({ path: `${zipPath}/${path}`, reason: 'missing' as const })),
    );
    for (let index = 0; index < entries.length; index++) {
      const entry = entries[index]!;
      const path = `${zipPath}/${entry.path}`;
      // Hidden and OS files are never instances; a DICOMDIR is never uploaded (the plan drops it).
      if (entryPlan.keep[index] && isUploadCandidate(baseName(entry.path))) {
        try {
          checkReadable(entry);
          const dataStart = await entryDataStart(archive, entry);
          const bytes =
            entry.method === ZIP_STORED
              ? blobSource(archive.slice(dataStart, dataStart + entry.size))
              : streamSource(() => entryStream(archive, entry, dataStart));
          const source: MediaSource = { kind: 'zip-entry', pick, path, entry, dataStart };
          if (nested) source.archive = archive;
          if (!(await found(source, bytes))) {
            if (looksLikeZip(await bytes.read(0, 4))) {
              await scanInnerZip(pick, archive, entry, dataStart, path, depth);
            } else if (isDocument(baseName(entry.path))) {
              result.documents.push(source);
            }
          }
        } catch (error) {
          result.unreadable++;
          result.problems.push({ path, reason: zipReason(error) });
        }
      }
      step();
    }
  }

  /** Opens a ZIP found as an entry of `archive` (by its signature, whatever its name). */
  async function scanInnerZip(
    pick: number,
    archive: Blob,
    entry: ZipEntry,
    dataStart: number,
    path: string,
    depth: number,
  ): Promise<void> {
    if (depth >= MAX_ZIP_DEPTH) {
      result.unreadable++;
      result.problems.push({ path, reason: 'zip-too-deep' });
      return;
    }
    if (entry.method !== ZIP_STORED && entry.size > maxInflated) {
      result.unreadable++;
      result.problems.push({ path, reason: 'zip-too-large' });
      return;
    }
    // Stored: the inner archive is a plain slice of the outer one. Deflated: its directory sits at
    // its end, which only a whole (CRC-checked) inflation reaches.
    const inner =
      entry.method === ZIP_STORED
        ? archive.slice(dataStart, dataStart + entry.size)
        : await entryBlob(archive, entry, dataStart);
    await scanZip(pick, inner, path, depth + 1);
  }
}
