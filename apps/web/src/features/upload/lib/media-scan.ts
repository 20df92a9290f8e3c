import { isUploadCandidate } from '../../../lib/run-queue';
import { blobSource, streamSource, type ByteSource } from './byte-source';
import { readDicomHeader } from './dicom-header';
import { MAX_DICOMDIR_BYTES, planByDicomdir } from './dicomdir';
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

/** A picked or dropped file and its path in the selection (`CD/DICOM/IMG1`, or just its name). */
export interface PickedFile {
  file: File;
  path: string;
}

/** Where a DICOM file found by the scan lives: a picked file, or an entry of a picked ZIP. */
export type MediaSource =
  | { kind: 'file'; pick: number; path: string }
  | { kind: 'zip-entry'; pick: number; path: string; entry: ZipEntry; dataStart: number };

export type MediaProblemReason = 'encrypted' | 'unsupported-method' | 'damaged-zip' | 'split-zip' | 'missing';

/** A file the scan could not take, said per file to the user. */
export interface MediaProblem {
  path: string;
  reason: MediaProblemReason;
}

const PROGRESS_EVERY = 25;

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
 * inside a picked folder) entry by entry, and media with a DICOMDIR, where only the files it lists
 * are read. Only header prefixes are read; a ZIP is read from its central directory and each entry
 * sliced (stored) or inflated as a prefix (deflated). Parsed files are numbered in `sources`.
 */
export async function scanMedia(
  picked: readonly PickedFile[],
  onProgress: (done: number, total: number) => void = () => undefined,
): Promise<ScanResult> {
  const result: ScanResult = {
    fileCount: picked.length,
    sources: [],
    parsed: [],
    unreadable: 0,
    problems: [],
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
          if (looksLikeZip(head)) await scanZip(pick);
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

  /** Scans the entries of the ZIP picked at `pick`. */
  async function scanZip(pick: number): Promise<void> {
    const { file: zip, path: zipPath } = picked[pick]!;
    const entries = (await readZipEntries(zip)).filter(isMediaEntry);
    total += entries.length;
    // The archive stands for its entries in the file count.
    result.fileCount += entries.length - 1;
    const entryPlan = await planByDicomdir(
      entries.map((e) => e.path),
      async (index) => {
        const entry = entries[index]!;
        if (entry.size > MAX_DICOMDIR_BYTES) throw new Error('DICOMDIR too large to read');
        return readWhole(await entryBlob(zip, entry, await entryDataStart(zip, entry)));
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
          const dataStart = await entryDataStart(zip, entry);
          const bytes =
            entry.method === ZIP_STORED
              ? blobSource(zip.slice(dataStart, dataStart + entry.size))
              : streamSource(() => entryStream(zip, entry, dataStart));
          await found({ kind: 'zip-entry', pick, path, entry, dataStart }, bytes);
        } catch (error) {
          result.unreadable++;
          result.problems.push({ path, reason: zipReason(error) });
        }
      }
      step();
    }
  }
}
