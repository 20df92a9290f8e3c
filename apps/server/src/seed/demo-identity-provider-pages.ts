import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';

/** A login the provider's page accepts: who it is and the password it checks. */
export interface IdpCredentials {
  login: string;
  password: string;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/**
 * One self-contained page of the provider: no script, no font or image from elsewhere (an
 * offline machine shows it without a failed load), and a policy that lets nothing else run.
 */
export function providerPage(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="icon" href="data:,">
<style>
body{font-family:system-ui,sans-serif;background:#eef1f5;margin:0;padding:48px 16px}
main{max-width:360px;margin:0 auto;background:#fff;border-radius:6px;box-shadow:0 1px 4px rgba(0,0,0,.2);padding:24px 32px}
h1{font-size:1.4em;font-weight:500;margin:0 0 4px}p.who{color:#555;margin:0 0 20px}
label{display:block;font-size:.9em;margin:12px 0 4px}
input{width:100%;box-sizing:border-box;height:40px;font-size:16px;padding:0 8px;border:1px solid #aaa;border-radius:4px}
button{width:100%;height:40px;margin-top:20px;font-size:15px;border:0;border-radius:4px;background:#2f5597;color:#fff;cursor:pointer}
button.secondary{background:none;color:#2f5597;margin-top:8px}
p.error{color:#b00020;margin:12px 0 0}
</style></head><body><main>${body}</main></body></html>`;
}

/** The provider's sign-in page for one interaction: login and password, and a way to cancel. */
export function loginPage(uid: string, clientName: string, error?: string, login = ''): string {
  const path = `/interaction/${encodeURIComponent(uid)}`;
  return providerPage(
    'Sign in – identity provider',
    `<h1>Sign in</h1><p class="who">to continue to ${escapeHtml(clientName)}</p>
<form method="post" action="${path}/login" autocomplete="off">
<label for="login">Login</label><input id="login" name="login" value="${escapeHtml(login)}" required autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" required>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<button type="submit">Sign in</button></form>
<form method="post" action="${path}/abort"><button type="submit" class="secondary">Cancel</button></form>`,
  );
}

/** Same-length digests compared in constant time, so the check says nothing of how much matched. */
export function samePassword(typed: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(typed), digest(expected));
}

/** The POSTed form, at most 4 KiB (a login and a password). */
export async function formOf(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) {
    body += String(chunk);
    if (body.length > 4096) throw new Error('form too large');
  }
  return new URLSearchParams(body);
}

export function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
  });
  res.end(html);
}

/**
 * The provider's own interaction pages (`/interaction/<uid>`, its `/login` and `/abort`), instead of
 * `oidc-provider`'s development pages, which sign in whoever types a known login: here the
 * password must match, a wrong one shows the page again with an error (the browser stays at the
 * provider, signed in nowhere), and Cancel answers the application `access_denied`, as a real
 * provider's cancel does. Answers false for any other path, which the provider itself serves.
 */
export async function serveInteraction(
  provider: Provider,
  credentials: (login: string) => IdpCredentials | undefined,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  const match = /^\/interaction\/([\w-]{1,64})(\/login|\/abort)?$/.exec((req.url ?? '').split('?')[0]!);
  if (!match) return false;
  const [, uid, action] = match;
  let details;
  try {
    details = await provider.interactionDetails(req, res);
  } catch {
    send(
      res,
      400,
      providerPage(
        'Sign-in expired',
        '<h1>This sign-in has expired</h1><p>Start again from the application.</p>',
      ),
    );
    return true;
  }
  if (details.uid !== uid || details.prompt.name !== 'login') {
    send(
      res,
      400,
      providerPage('Sign-in', '<h1>Nothing to do here</h1><p>Start again from the application.</p>'),
    );
    return true;
  }
  const client = await provider.Client.find(String(details.params['client_id']));
  const clientName = client?.clientName ?? client?.clientId ?? 'the application';
  if (req.method === 'GET' && !action) {
    send(res, 200, loginPage(uid, clientName));
    return true;
  }
  if (req.method !== 'POST') {
    send(res, 405, providerPage('Sign-in', '<h1>Method not allowed</h1>'));
    return true;
  }
  if (action === '/abort') {
    await provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'End-User aborted interaction' },
      { mergeWithLastSubmission: false },
    );
    return true;
  }
  let form: URLSearchParams;
  try {
    form = await formOf(req);
  } catch {
    send(res, 413, providerPage('Sign-in', '<h1>Request too large</h1>'));
    return true;
  }
  const login = (form.get('login') ?? '').trim().slice(0, 320);
  const password = form.get('password') ?? '';
  const known = credentials(login);
  // A wrong password and an unknown login answer alike: the page does not say which logins exist.
  if (!known || !samePassword(password, known.password)) {
    send(res, 200, loginPage(uid, clientName, 'Wrong login or password.', login));
    return true;
  }
  await provider.interactionFinished(
    req,
    res,
    { login: { accountId: known.login } },
    { mergeWithLastSubmission: false },
  );
  return true;
}
