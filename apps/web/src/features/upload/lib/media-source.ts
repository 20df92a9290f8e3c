// The scan's answers about where a file lives and why it was refused: their own file so that the
// scan's result (studies.ts) and the scan itself (media-scan.ts, which re-exports them) share them
// without importing each other.
import type { ZipEntry } from './zip-reader';

/**
 * Where a DICOM file found by the scan lives: a picked file, or an entry of a picked ZIP. An entry
 * of a ZIP inside a ZIP names its `archive`: a slice of the outer one (stored) or the inner ZIP
 * inflated into a Blob (deflated); without it the archive is the picked file itself.
 */
export type MediaSource =
  | { kind: 'file'; pick: number; path: string }
  | { kind: 'zip-entry'; pick: number; path: string; entry: ZipEntry; dataStart: number; archive?: Blob };

export type MediaProblemReason =
  | 'encrypted'
  | 'unsupported-method'
  | 'damaged-zip'
  | 'split-zip'
  | 'missing'
  | 'zip-too-deep'
  | 'zip-too-large';

/** A file the scan could not take, said per file to the user. */
export interface MediaProblem {
  path: string;
  reason: MediaProblemReason;
}
