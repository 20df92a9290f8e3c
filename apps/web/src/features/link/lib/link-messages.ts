import { MESSAGES } from '@imaging-inbox/contract';

/** What the outside party reads for an error code of the public link calls. */
export function linkErrorMessage(code: string): string {
  switch (code) {
    case 'NO_LINK_ERROR':
      return MESSAGES.linkUnavailable;
    case 'BAD_PASSWORD':
      return MESSAGES.linkWrongPassword;
    case 'RATE_LIMITED':
      return MESSAGES.linkTooManyAttempts;
    default:
      return MESSAGES.unexpectedError;
  }
}
