import { WRAP_MAX_FILES } from '@imaging-inbox/contract';
import { fileProblem } from '../../upload';

export interface OfferedDocuments {
  /** PDF, JPEG, PNG and MP4 files of the pick, loose or inside a ZIP: sent with the patient form. */
  documents: File[];
  /** Why some documents cannot be sent (too large, or too many for one submission). */
  problem: 'wrapFileTooLarge' | 'tooMany' | null;
}

/**
 * The documents the media scan found in a link pick (`MediaScanOutcome.documents`), less those over
 * the wrap size limit; none when they are more than one submission takes (the server would refuse
 * the whole call).
 */
export function offeredDocuments(found: readonly File[]): OfferedDocuments {
  const documents = found.filter((file) => fileProblem(file) === null);
  const problem = documents.length < found.length ? 'wrapFileTooLarge' : null;
  if (documents.length > WRAP_MAX_FILES) return { documents: [], problem: 'tooMany' };
  return { documents, problem };
}
