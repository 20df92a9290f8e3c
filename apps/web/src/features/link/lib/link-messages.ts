import { MESSAGES } from '@imaging-inbox/contract';

/** What the outside party reads for an error code of the public link calls (unlock, upload, wrap). */
export function linkErrorMessage(code: string): string {
  switch (code) {
    case 'NO_LINK_ERROR':
      return MESSAGES.linkUnavailable;
    case 'BAD_PASSWORD':
      return MESSAGES.linkWrongPassword;
    case 'RATE_LIMITED':
      return MESSAGES.linkTooManyAttempts;
    // The document upload (link/public/wrap) answers the wizard's wrap errors.
    case 'INVALID_FILE_TYPE':
    case 'UNSUPPORTED_VIDEO_CODEC':
      return MESSAGES.wrapFileTypes;
    case 'INVALID_FILE_CONTENT':
      return MESSAGES.linkDocumentUnreadable;
    case 'FILE_TOO_LARGE':
      return MESSAGES.wrapFileTooLarge;
    case 'NOT_PERMITTED':
      return MESSAGES.linkDocumentsNotAccepted;

    default:
      return MESSAGES.unexpectedError;
  }
}
