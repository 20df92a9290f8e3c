import { describe, expect, it } from 'vitest';
import { ssoRefusalText } from './SsoEmailStep';

const t = ((key: string) => key) as Parameters<typeof ssoRefusalText>[1];

describe('the sign-in page says why a provider sign-in was refused', () => {
  it('gives each refusal code its own words, and the general words to any other code', () => {
    const known = ['no_account', 'unavailable', 'provider_error', 'disabled', 'state', 'rate_limited'];
    const texts = known.map((reason) => ssoRefusalText(reason, t));
    expect(new Set(texts).size).toBe(known.length);
    const general = ssoRefusalText('token', t);
    expect(texts).not.toContain(general);
    expect(ssoRefusalText('claims', t)).toBe(general);
    // Whatever a crafted address puts in sso_error never reaches the page as text.
    expect(ssoRefusalText('<b>Call 555-0100 to unlock</b>', t)).toBe(general);
  });
});
