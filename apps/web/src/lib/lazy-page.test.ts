import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyPage } from './lazy-page';

describe('lazyPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('tries a chunk that failed to load again on the next attempt, instead of keeping the failure', async () => {
    let attempts = 0;
    const Page = lazyPage(
      () => {
        attempts += 1;
        return attempts === 1
          ? Promise.reject(new TypeError('Failed to fetch dynamically imported module'))
          : Promise.resolve({ Page: () => null });
      },
      (m) => m.Page,
    );
    // Without session storage no reload is started (it could loop): the failure reaches the caller.
    vi.stubGlobal('sessionStorage', undefined);
    await expect(Page.preload()).rejects.toThrow('Failed to fetch dynamically imported module');
    await expect(Page.preload()).resolves.toEqual({ default: expect.any(Function) });
    expect(attempts).toBe(2);
  });
});
