import type { MediaSource, PickedFile } from './media-scan';
import { entryBlob, ZIP_STORED, type ZipEntry } from './zip-reader';

/**
 * A deflated ZIP entry standing in the upload list as a File: it reports the entry's name, date and
 * uncompressed size (what the progress bar and the resume key use) but holds no bytes. The sender
 * inflates it with `uploadBody` only when its turn comes, so memory holds at most the files in
 * flight, never the archive.
 */
export class ZipEntryFile extends File {
  constructor(
    readonly archive: Blob,
    readonly entry: ZipEntry,
    readonly dataStart: number,
    name: string,
    lastModified: number,
  ) {
    super([], name, { lastModified });
    // File's own size is that of its (empty) content: report the entry's.
    Object.defineProperty(this, 'size', { value: entry.size });
  }
}

/** Inflations run one at a time: each holds a whole entry in memory while it runs. */
let inflating: Promise<unknown> = Promise.resolve();

/** What to send for `file`: the file itself, or a ZIP entry inflated now (CRC-checked). */
export function uploadBody(file: File): Promise<Blob> {
  if (!(file instanceof ZipEntryFile)) return Promise.resolve(file);
  const next = inflating.then(() => entryBlob(file.archive, file.entry, file.dataStart));
  inflating = next.catch(() => undefined);
  return next;
}

/**
 * The Files to upload for a scan's sources, in the same order: picked files as they are, stored ZIP
 * entries as slices of their archive (no copy), deflated ones as ZipEntryFile. Entries are named by
 * their path inside the selection (`exams.zip/CT/IMG1`), which keeps their resume key stable.
 */
export function filesOfSources(picked: readonly PickedFile[], sources: readonly MediaSource[]): File[] {
  return sources.map((source) => {
    const { file } = picked[source.pick]!;
    if (source.kind === 'file') return file;
    const { entry, dataStart } = source;
    // An entry of a ZIP inside the picked ZIP lives in that inner archive.
    const archive = source.archive ?? file;
    if (entry.method === ZIP_STORED) {
      return new File([archive.slice(dataStart, dataStart + entry.size)], source.path, {
        lastModified: file.lastModified,
      });
    }
    return new ZipEntryFile(archive, entry, dataStart, source.path, file.lastModified);
  });
}
