import { createPrivateKey, sign } from 'node:crypto';
import type { LocalIdentityProvider } from '../../src/seed/demo-identity-provider.js';

/**
 * A browser's part in an OpenID Connect sign-in, done with fetch: cookies kept per site, redirects
 * followed by hand so each hop can be read, and the provider's own sign-in form filled in.
 */
export class CookieJar {
  private readonly cookies = new Map<string, Map<string, string>>();

  take(url: string, response: Response): void {
    const host = new URL(url).host;
    const jar = this.cookies.get(host) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      if (/max-age=0/i.test(line)) jar.delete(name!.trim());
      else jar.set(name!.trim(), value.join('='));
    }
    this.cookies.set(host, jar);
  }

  header(url: string): string {
    const jar = this.cookies.get(new URL(url).host);
    return jar ? [...jar].map(([k, v]) => `${k}=${v}`).join('; ') : '';
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: this.header(url) },
    });
    this.take(url, response);
    return response;
  }
}

const location = (from: string, response: Response) => new URL(response.headers.get('location')!, from).href;

/**
 * From the provider's authorization URL to the callback URL it sends the browser back with:
 * follows the provider's redirects, signs in on its page as `login` with `password` (the user's
 * own at the provider unless given), and stops at the first redirect outside the provider. Throws
 * when the provider's page refuses the login.
 */
export async function signInAtProvider(
  jar: CookieJar,
  idp: Pick<LocalIdentityProvider, 'issuer'> & Partial<Pick<LocalIdentityProvider, 'users'>>,
  authUrl: string,
  login: string,
  password = idp.users?.get(login)?.password ?? '',
) {
  let url = authUrl;
  for (let hop = 0; hop < 10; hop++) {
    if (!url.startsWith(idp.issuer)) return url;
    const response = await jar.fetch(url);
    if (response.status >= 300 && response.status < 400) {
      url = location(url, response);
      continue;
    }
    const page = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    if (!action || !page.includes('name="login"'))
      throw new Error(`unexpected provider page ${response.status}: ${page.slice(0, 300)}`);
    const submit = new URL(action, url).href;
    const posted = await jar.fetch(submit, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ login, password }).toString(),
    });
    if (posted.status < 300 || posted.status >= 400)
      throw new Error(`the provider refused the login (${posted.status})`);
    url = location(submit, posted);
  }
  throw new Error('too many redirects at the provider');
}

const b64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/** An ID token re-signed with the provider's own key after `change`: only what was changed is wrong. */
export function resignIdToken(
  idp: LocalIdentityProvider,
  idToken: string,
  change: (claims: Record<string, unknown>) => Record<string, unknown>,
): string {
  const [header, payload] = idToken.split('.');
  const claims = change(JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>);
  const body = `${header}.${b64url(JSON.stringify(claims))}`;
  const key = createPrivateKey({ key: idp.signingKey as never, format: 'jwk' });
  return `${body}.${b64url(sign('sha256', Buffer.from(body), key))}`;
}

/**
 * Makes the provider's next token answer carry an ID token changed by `change` (and signed with
 * the provider's key), as a provider that minted a wrong token would.
 */
export function tamperNextIdToken(
  idp: LocalIdentityProvider,
  change: (claims: Record<string, unknown>) => Record<string, unknown>,
): void {
  let done = false;
  idp.provider.use(async (ctx, next) => {
    await next();
    if (done || ctx.path !== '/token' || ctx.status !== 200) return;
    done = true;
    const body = ctx.body as { id_token?: string };
    if (body?.id_token) ctx.body = { ...body, id_token: resignIdToken(idp, body.id_token, change) };
  });
}
