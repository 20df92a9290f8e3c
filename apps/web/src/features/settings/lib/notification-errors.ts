import { MESSAGES } from '@imaging-inbox/contract';

/** SPEC section 8: NOT_FOUND, NOT_MEMBER and NOT_PERMITTED each have their own message. */
export function notificationErrorMessage(code: string): string {
  switch (code) {
    case 'NOT_FOUND':
      return MESSAGES.notificationsNotFound;
    case 'NOT_MEMBER':
      return MESSAGES.notificationsNotMember;
    case 'NOT_PERMITTED':
      return MESSAGES.notificationsNotPermitted;
    default:
      return MESSAGES.notificationsFailed;
  }
}
