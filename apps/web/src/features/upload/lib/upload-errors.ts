/**
 * The upload codes of SPEC.md section 8 that belong to a whole run, not to one file's answer:
 * - DICOM_INFO_NOT_FOUND: the run had no upload info (no exam, no file) or no destination namespace,
 *   so nothing was sent;
 * - FILE_UPLOAD_FAILED: any file's job failed (each file keeps the server's own code);
 * - NON_DICOM_UPLOAD_FAILED: the same for a non-DICOM run: a file's wrap call was not accepted;
 * - JOB_FAILED: the run was cancelled (its unsent files end with this code too).
 */
export const UPLOAD_RUN_ERRORS = {
  noUploadInfo: 'DICOM_INFO_NOT_FOUND',
  fileFailed: 'FILE_UPLOAD_FAILED',
  nonDicomFailed: 'NON_DICOM_UPLOAD_FAILED',
  cancelled: 'JOB_FAILED',
} as const;

export type UploadRunError = (typeof UPLOAD_RUN_ERRORS)[keyof typeof UPLOAD_RUN_ERRORS];
