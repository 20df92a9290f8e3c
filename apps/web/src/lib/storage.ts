/** Session-storage keys of SPEC.md section 9, kept as plain strings. */
export const STORAGE_KEYS = {
  sid: 'sid',
  tags: 'tags',
  uiJson: 'user:ui_json',
  lastSearch: 'worklist:lastSearch',
  /** When this tab left for its account's identity provider (ms), until the sign-in lands. */
  ssoStarted: 'sso:started',
} as const;

export function getSid(): string | null {
  return sessionStorage.getItem(STORAGE_KEYS.sid);
}

export function setSid(sid: string): void {
  sessionStorage.setItem(STORAGE_KEYS.sid, sid);
}

export function clearSession(): void {
  sessionStorage.clear();
}

export function readJson<T>(key: string): T | null {
  const raw = sessionStorage.getItem(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown): void {
  sessionStorage.setItem(key, JSON.stringify(value));
}
