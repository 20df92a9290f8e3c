/** Session-storage key: when this tab last reloaded because a chunk would not load. */
export const CHUNK_RELOAD_KEY = 'chunk-reload-at';
/** A second failure this soon after such a reload is not a stale build: show the error instead. */
export const CHUNK_RELOAD_WINDOW_MS = 30_000;

interface ReloadDeps {
  now: () => number;
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  reload: () => void;
}

const browser: ReloadDeps = {
  now: () => Date.now(),
  get storage() {
    return sessionStorage;
  },
  reload: () => window.location.reload(),
};

let reloading = false;

/**
 * A chunk that fails to load most often belongs to a build the server no longer has (an upgrade
 * since this page opened): reloading fetches the current index.html and its chunks. Reloads at most
 * once per window per tab (a marker in session storage survives the reload), so a chunk that is
 * really broken shows its error instead of reloading forever. Answers whether a reload is underway.
 */
export function reloadForStaleChunk(deps: ReloadDeps = browser): boolean {
  if (reloading) return true;
  const now = deps.now();
  try {
    const last = Number(deps.storage.getItem(CHUNK_RELOAD_KEY));
    if (last > 0 && now >= last && now - last < CHUNK_RELOAD_WINDOW_MS) return false;
    deps.storage.setItem(CHUNK_RELOAD_KEY, String(now));
  } catch {
    // No session storage (a locked-down browser): without a marker a reload could loop, so none.
    return false;
  }
  reloading = true;
  deps.reload();
  return true;
}

/**
 * Vite's dynamic-import helper announces a chunk (or its CSS) that failed with `vite:preloadError`:
 * covers the imports outside `lazyPage` (locale texts, date-picker locales). The error still reaches
 * its caller; the reload replaces the page.
 */
export function reloadOnStaleChunks(): void {
  window.addEventListener('vite:preloadError', () => {
    reloadForStaleChunk();
  });
}

/** For tests: forget a reload started in this module's lifetime. */
export function resetStaleChunkReload(): void {
  reloading = false;
}
