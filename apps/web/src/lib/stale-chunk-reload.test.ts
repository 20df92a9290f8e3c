import { afterEach, describe, expect, it } from 'vitest';
import {
  CHUNK_RELOAD_KEY,
  CHUNK_RELOAD_WINDOW_MS,
  reloadForStaleChunk,
  resetStaleChunkReload,
} from './stale-chunk-reload';

function tab(start: number) {
  const values = new Map<string, string>();
  const tabState = {
    clock: start,
    reloads: 0,
    values,
    deps: {
      now: () => tabState.clock,
      storage: {
        getItem: (key: string) => values.get(key) ?? null,
        setItem: (key: string, value: string) => void values.set(key, value),
      },
      reload: () => {
        tabState.reloads += 1;
      },
    },
  };
  return tabState;
}

describe('reloadForStaleChunk', () => {
  afterEach(() => resetStaleChunkReload());

  it('reloads once and marks the tab with the time', () => {
    const t = tab(1_000_000);
    expect(reloadForStaleChunk(t.deps)).toBe(true);
    expect(t.reloads).toBe(1);
    expect(t.values.get(CHUNK_RELOAD_KEY)).toBe('1000000');
    // Another failing chunk of the same page while the reload is underway: no second reload.
    expect(reloadForStaleChunk(t.deps)).toBe(true);
    expect(t.reloads).toBe(1);
  });

  it('does not reload again inside the window after a reload, so a broken chunk cannot loop', () => {
    const t = tab(1_000_000);
    reloadForStaleChunk(t.deps);
    resetStaleChunkReload(); // the reloaded page
    t.clock += CHUNK_RELOAD_WINDOW_MS - 1;
    expect(reloadForStaleChunk(t.deps)).toBe(false);
    expect(t.reloads).toBe(1);
  });

  it('reloads again for an upgrade long after the last reload', () => {
    const t = tab(1_000_000);
    reloadForStaleChunk(t.deps);
    resetStaleChunkReload();
    t.clock += CHUNK_RELOAD_WINDOW_MS;
    expect(reloadForStaleChunk(t.deps)).toBe(true);
    expect(t.reloads).toBe(2);
  });

  it('never reloads without session storage to hold the marker', () => {
    const t = tab(1_000_000);
    t.deps.storage.getItem = () => {
      throw new Error('SecurityError');
    };
    expect(reloadForStaleChunk(t.deps)).toBe(false);
    expect(t.reloads).toBe(0);
  });
});
