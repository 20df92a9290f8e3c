import { MESSAGES } from '@imaging-inbox/contract';

/** What the recipient reads for an error code of the public send calls. */
export function sendLinkErrorMessage(code: string): string {
  switch (code) {
    case 'NO_LINK_ERROR':
      return MESSAGES.sendLinkUnavailable;
    case 'INVALID_FIELD':
      return MESSAGES.sendCodeWrong;
    case 'RATE_LIMITED':
      return MESSAGES.linkTooManyAttempts;
    default:
      return MESSAGES.unexpectedError;
  }
}
