import { isSameOriginPath, SSO_DEFAULT_RETURN } from '@imaging-inbox/contract';
import { API_BASE, api } from '../../../lib/api-client';
import { signedIn } from '../../../lib/session-events';
import { setSid } from '../../../lib/storage';

/** Whether some account signs in through a provider, and (with an e-mail) which one this address uses. */
export const ssoLookup = (email?: string) =>
  api.call('session/sso/lookup', email ? { email } : {}, { withSid: false });

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
 * then the fragment is dropped from history. Answers where to go, or null when there was no sid.
 */
export function finishSsoSignIn(hash: string): string | null {
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  const sid = fragment.get('sid');
  if (!sid) return null;
  signedIn();
  setSid(sid);
  const to = fragment.get('to') ?? SSO_DEFAULT_RETURN;
  return isSameOriginPath(to) ? to : SSO_DEFAULT_RETURN;
}
