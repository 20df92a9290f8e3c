import dicomParser from 'dicom-parser';

/**
 * What a DICOMDIR (the index of a DICOM CD or DVD) says about the media: the files its directory
 * records (PATIENT / STUDY / SERIES / IMAGE and the other instance records) reference. With it the
 * wizard reads only the listed files and skips everything else on the disc (viewers, autorun).
 */

const MEDIA_STORAGE_DIRECTORY = '1.2.840.10008.1.3.10';
const DIRECTORY_RECORDS = 'x00041220';
const REFERENCED_FILE_ID = 'x00041500';
/** A DICOMDIR larger than this is not read: the scan falls back to reading every file. */
export const MAX_DICOMDIR_BYTES = 64 * 1024 * 1024;

/**
 * The files a DICOMDIR references, as '/'-separated paths relative to its folder (`DICOM\IMG0001`
 * becomes `DICOM/IMG0001`); null when the bytes are not a readable DICOMDIR.
 */
export function readDicomdirReferences(bytes: Uint8Array): string[] | null {
  let dataSet: ReturnType<typeof dicomParser.parseDicom>;
  try {
    dataSet = dicomParser.parseDicom(bytes);
  } catch {
    return null;
  }
  if (dataSet.string('x00020002')?.trim() !== MEDIA_STORAGE_DIRECTORY) return null;
  const records = dataSet.elements[DIRECTORY_RECORDS]?.items;
  if (!records) return null;
  const paths: string[] = [];
  for (const record of records) {
    const id = record.dataSet?.string(REFERENCED_FILE_ID);
    if (!id) continue;
    const parts = id.split('\\').map((part) => part.trim());
    if (parts.every(Boolean)) paths.push(parts.join('/'));
  }
  return paths;
}

/**
 * A path as DICOMDIR references are matched against it: case-insensitive, and without the ISO 9660
 * version suffix (`;1`) or the empty extension dot some systems show on CD file names.
 */
export function mediaPathKey(path: string): string {
  return path
    .split('/')
    .map((part) => part.replace(/;\d*$/, '').replace(/\.$/, '').toUpperCase())
    .join('/');
}

export const isDicomdirPath = (path: string) => mediaPathKey(path).split('/').pop() === 'DICOMDIR';

/** Which items of a selection to read, as the DICOMDIRs in it decide. */
export interface DicomdirPlan {
  /** Per item: read it (false for DICOMDIRs and for files a DICOMDIR of their folder leaves out). */
  keep: boolean[];
  /** Paths DICOMDIRs reference that the selection lacks. */
  missing: string[];
  /** DICOMDIRs that could not be read: their folders are scanned file by file instead. */
  unreadable: string[];
}

/**
 * Plans a scan of `paths` (a picked folder, a drop, the entries of a ZIP): each DICOMDIR governs
 * the files of its folder and below, which are read only when it references them. A DICOMDIR that
 * cannot be read, or references nothing, governs nothing (every file there is read, as without it).
 */
export async function planByDicomdir(
  paths: readonly string[],
  readBytes: (index: number) => Promise<Uint8Array>,
): Promise<DicomdirPlan> {
  const keys = paths.map(mediaPathKey);
  const keep = paths.map((path) => !isDicomdirPath(path));
  const plan: DicomdirPlan = { keep, missing: [], unreadable: [] };
  const dicomdirs = paths.flatMap((path, index) => (isDicomdirPath(path) ? [index] : []));
  if (dicomdirs.length === 0) return plan;

  const present = new Set(keys);
  const listed = new Set<string>();
  const roots: string[] = [];
  for (const index of dicomdirs) {
    let references: string[] | null;
    try {
      references = readDicomdirReferences(await readBytes(index));
    } catch {
      references = null;
    }
    if (!references || references.length === 0) {
      plan.unreadable.push(paths[index]!);
      continue;
    }
    const rootKey = keys[index]!.slice(0, keys[index]!.length - 'DICOMDIR'.length);
    const rootPath = paths[index]!.slice(0, paths[index]!.lastIndexOf('/') + 1);
    roots.push(rootKey);
    for (const reference of references) {
      const key = rootKey + mediaPathKey(reference);
      listed.add(key);
      if (!present.has(key)) plan.missing.push(rootPath + reference);
    }
  }
  keys.forEach((key, index) => {
    if (keep[index] && roots.some((root) => key.startsWith(root)) && !listed.has(key)) keep[index] = false;
  });
  return plan;
}
