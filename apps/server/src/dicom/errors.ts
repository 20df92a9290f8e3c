/**
 * Typed failure of the DICOM header reader.
 *
 * The ingest pipeline maps `code` onto the api/v3 `error_type` (and onto DIMSE failure statuses), so the
 * codes are part of the contract and must stay stable; `message` is for logs only.
 */
export type DicomParseErrorCode =
  | 'FILE_CONTENT_EMPTY'
  | 'INVALID_DICOM'
  | 'TAG_NOT_FOUND'
  /** A deflated dataset that inflates past the ceiling (dicom/inflate.ts). */
  | 'DECOMPRESSION_LIMIT'
  /** A Study, Series or SOP Instance UID that breaks PS3.5 9.1 (detail: its keyword). */
  | 'INVALID_UID';

export class DicomParseError extends Error {
  override readonly name = 'DicomParseError';

  constructor(
    readonly code: DicomParseErrorCode,
    /** For TAG_NOT_FOUND: the keyword of the missing attribute (e.g. `SOPInstanceUID`); else a short reason. */
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${code}: ${detail}`, options);
  }
}
