import { isSameOriginPath, SSO_DEFAULT_RETURN } from '@imaging-inbox/contract';
import { signedIn } from '../../../lib/session-events';
import { STORAGE_KEYS, setSid } from '../../../lib/storage';

// Apart from sso.ts, which the sign-in page loads: the contract's module of these two also builds
// the single sign-on schemas, and so would bring zod onto the sign-in page (decision 0075).

/** How long a sign-in at the provider may take before its landing here is no longer accepted. */
const SSO_LANDING_WINDOW_MS = 15 * 60_000;

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
