import { SSO_DEFAULT_RETURN } from '@imaging-inbox/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { getSid } from '../../../lib/storage';
import { markSsoStarted } from './sso';
import { finishSsoSignIn } from './sso-landing';

const NOW = 1_800_000_000_000;

describe('landing from the identity provider', () => {
  beforeEach(() => sessionStorage.clear());

  it('keeps the sid and goes where the sign-in started, in a tab that left for the provider', () => {
    markSsoStarted(NOW - 60_000);
    expect(finishSsoSignIn('#sid=abc123&to=%2Fstudies%3Fq%3D1', NOW)).toBe('/studies?q=1');
    expect(getSid()).toBe('abc123');
  });

  it('refuses a sid in a tab that never left for a provider (a link made with someone else’s sid)', () => {
    expect(finishSsoSignIn('#sid=attacker', NOW)).toBeNull();
    expect(getSid()).toBeNull();
  });

  it('refuses a landing long after the tab left, and accepts the mark only once', () => {
    markSsoStarted(NOW - 16 * 60_000);
    expect(finishSsoSignIn('#sid=late', NOW)).toBeNull();
    markSsoStarted(NOW - 1_000);
    expect(finishSsoSignIn('#sid=first', NOW)).toBe(SSO_DEFAULT_RETURN);
    sessionStorage.removeItem('sid');
    expect(finishSsoSignIn('#sid=again', NOW)).toBeNull();
    expect(getSid()).toBeNull();
  });

  it('goes to the default page instead of another site', () => {
    markSsoStarted(NOW);
    expect(finishSsoSignIn('#sid=abc&to=https%3A%2F%2Fevil.example%2F', NOW)).toBe(SSO_DEFAULT_RETURN);
  });
});
