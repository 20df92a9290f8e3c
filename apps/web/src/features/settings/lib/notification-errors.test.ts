import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@imaging-inbox/contract';
import { notificationErrorMessage } from './notification-errors';

describe('notificationErrorMessage', () => {
  it('gives each server refusal its own message and anything else the generic one', () => {
    const texts = ['NOT_FOUND', 'NOT_MEMBER', 'NOT_PERMITTED'].map(notificationErrorMessage);
    expect(new Set(texts).size).toBe(3);
    expect(texts).toEqual([
      MESSAGES.notificationsNotFound,
      MESSAGES.notificationsNotMember,
      MESSAGES.notificationsNotPermitted,
    ]);
    expect(notificationErrorMessage('NETWORK_ERROR')).toBe(MESSAGES.notificationsFailed);
  });
});
