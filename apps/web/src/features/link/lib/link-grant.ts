/**
 * The upload grant of a link, kept in this tab's sessionStorage until it expires: a reload goes on
 * with the same grant (no second hit of the link, and its unfinished upload sessions reachable).
 */
const keyOf = (token: string) => `link-grant:${token}`;

export function savedGrant(token: string, now = Date.now()): string | null {
  try {
    const raw = sessionStorage.getItem(keyOf(token));
    if (!raw) return null;
    const saved = JSON.parse(raw) as { grant: string; expires: number };
    // A minute of margin: a grant about to end would fail mid-upload.
    return saved.expires - 60_000 > now ? saved.grant : null;
  } catch {
    return null;
  }
}

export function saveGrant(token: string, grant: string, expires: number): void {
  try {
    sessionStorage.setItem(keyOf(token), JSON.stringify({ grant, expires }));
  } catch {
    // Without storage a reload simply opens a new grant.
  }
}

export function forgetGrant(token: string): void {
  try {
    sessionStorage.removeItem(keyOf(token));
  } catch {
    // nothing kept
  }
}
