export interface OutboxMail {
  to: string;
  subject: string;
  body: string;
}

const unescape = (s: string) =>
  s.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));

/** The mails the e2e server wrote, newest first, read from its outbox page (it runs without SMTP). */
export async function outbox(baseUrl: string): Promise<OutboxMail[]> {
  const html = await (await fetch(`${baseUrl}/dev/outbox`)).text();
  return html
    .split('<article>')
    .slice(1)
    .map((article) => ({
      subject: unescape(/<h3>([\s\S]*?)<\/h3>/.exec(article)?.[1] ?? ''),
      to: unescape(/<p>To: ([^ ]+) ·/.exec(article)?.[1] ?? ''),
      body: unescape(/<pre>([\s\S]*?)<\/pre>/.exec(article)?.[1] ?? ''),
    }));
}

/**
 * Waits for a mail to `to` whose subject matches: sends and their mails are delivered by a job, a
 * moment after the request that queued them answered.
 */
export async function waitForMail(
  baseUrl: string,
  to: string,
  subject: RegExp,
  timeoutMs = 20_000,
): Promise<OutboxMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = (await outbox(baseUrl)).find((m) => m.to === to && subject.test(m.subject));
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${String(subject)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The path (`/link/{token}`) of the request-study link mailed to `to`. */
export async function mailedLinkPath(baseUrl: string, to: string): Promise<string> {
  const mail = await waitForMail(baseUrl, to, /asks you to upload a study/);
  const match = /(\/link\/[A-Za-z0-9_-]+)/.exec(mail.body);
  if (!match?.[1]) throw new Error(`no link mailed to ${to}`);
  return match[1];
}
