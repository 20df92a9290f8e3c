import { WRAP_MAX_FILES } from '@imaging-inbox/contract';
import type { PickedFile } from '../../upload/lib/media-scan';
import { fileProblem } from '../../upload/wrap/SelectFilesStep';

export interface SplitPick {
  /** PDF, JPEG, PNG and MP4 files picked as such: sent with the patient and exam form. */
  documents: File[];
  /** Everything else (DICOM files, folders, ZIPs, CDs): scanned and sent the DICOM way. */
  media: PickedFile[];
  /** Why some documents cannot be sent (too large, or too many for one submission). */
  problem: 'wrapFileTooLarge' | 'tooMany' | null;
}

/**
 * Splits a pick of the link page by file name and type, as the wizard's file step tells a
 * document (the server reads the bytes again). Documents inside a ZIP stay with the media.
 */
export function splitPick(picked: readonly PickedFile[]): SplitPick {
  const documents: File[] = [];
  const media: PickedFile[] = [];
  let problem: SplitPick['problem'] = null;
  for (const pick of picked) {
    const kind = fileProblem(pick.file);
    if (kind === 'wrapFileTypes') media.push(pick);
    else if (kind === 'wrapFileTooLarge') problem = 'wrapFileTooLarge';
    else documents.push(pick.file);
  }
  if (documents.length > WRAP_MAX_FILES) return { documents: [], media, problem: 'tooMany' };
  return { documents, media, problem };
}
