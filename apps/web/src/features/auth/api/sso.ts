import { api } from '../../../lib/api-client';
import { STORAGE_KEYS } from '../../../lib/storage';

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
  const params = by.accountId ? { account_id: by.accountId } : by.email ? { email: by.email } : {};
  return api.url('session/sso/start', { params, withSid: false });
}
