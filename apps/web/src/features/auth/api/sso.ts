import { isSameOriginPath, SSO_DEFAULT_RETURN } from '@imaging-inbox/contract';
import { API_BASE, api } from '../../../lib/api-client';
import { signedIn } from '../../../lib/session-events';
import { STORAGE_KEYS, setSid } from '../../../lib/storage';

/** How long a sign-in at the provider may take before its landing here is no longer accepted. */
const SSO_LANDING_WINDOW_MS = 15 * 60_000;

/** Whether some account signs in through a provider, and (with an e-mail) which one this address uses. */
export const ssoLookup = (email?: string) =>
  api.call('session/sso/lookup', email ? { email } : {}, { withSid: false });

/**
 * Marks this tab as leaving for its provider (call it as the browser goes to `ssoStartUrl`): only
 * a tab that did may keep the sid a landing brings, so a link made by someone else with their own
 * sid in it cannot sign this browser into their account.
 */
export function markSsoStarted(now = Date.now()): void {
  sessionStorage.setItem(STORAGE_KEYS.ssoStarted, String(now));
}

/** Where the browser goes to sign in through a provider: the server sends it on to the provider's page. */
export function ssoStartUrl(by: { email?: string; accountId?: string }): string {
  const query = new URLSearchParams();
  if (by.accountId) query.set('account_id', by.accountId);
  else if (by.email) query.set('email', by.email);
  return `${API_BASE}/session/sso/start?${query.toString()}`;
}

/**
 * The end of a sign-in through a provider: the server put the new sid (and where to go) in the
 * address's fragment, which no server ever receives. It is kept as a password sign-in keeps it,
 * then the fragment is dropped from history. Answers where to go, or null when there was no sid or
 * this tab did not leave for a provider within the last minutes (`markSsoStarted`).
 */
export function finishSsoSignIn(hash: string, now = Date.now()): string | null {
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  const sid = fragment.get('sid');
  const started = Number(sessionStorage.getItem(STORAGE_KEYS.ssoStarted));
  sessionStorage.removeItem(STORAGE_KEYS.ssoStarted);
  if (!sid || !started || now - started > SSO_LANDING_WINDOW_MS || now < started) return null;
  signedIn();
  setSid(sid);
  const to = fragment.get('to') ?? SSO_DEFAULT_RETURN;
  return isSameOriginPath(to) ? to : SSO_DEFAULT_RETURN;
}
