import { rm } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page, Response } from 'playwright-core';
import { signIn } from '../support/actions';
import { openBrowser, type BrowserSession } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';
import { copyBuild, installBuild, rehashedBuild } from '../support/web-build';

/** The chunk of a page the inbox loads only when it is opened. */
const SETTINGS_CHUNK = /\/assets\/AccountSettingsPage-[\w-]+\.js$/;
/** The marker apps/web/src/lib/stale-chunk-reload.ts keeps in session storage. */
const RELOAD_MARKER = 'chunk-reload-at';

/** Answers to the settings page's chunk from now on, and how many times the page (re)loaded. */
function watch(page: Page) {
  const chunks: { url: string; status: number }[] = [];
  const seen = { loads: 0 };
  page.on('response', (response: Response) => {
    if (SETTINGS_CHUNK.test(new URL(response.url()).pathname))
      chunks.push({ url: new URL(response.url()).pathname, status: response.status() });
  });
  page.on('load', () => (seen.loads += 1));
  return { chunks, seen };
}

/** Opens Account settings from the user menu: a client-side navigation to a lazy page. */
async function openSettings(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Account settings' }).click();
  await page.waitForURL('**/account-settings');
  await page.getByLabel('First name').waitFor();
}

// An upgrade while a user has the inbox open: the server's web app directory gets a new build (new
// hashed names) under the open page, which then opens a page whose chunk it has not loaded yet.
describe('an upgrade under an open page', () => {
  let server: RunningServer;
  let first: string;
  let next: { dir: string; renamed: Map<string, string> };
  let served: string;
  let b: BrowserSession;

  beforeAll(async () => {
    first = await copyBuild();
    next = await rehashedBuild(first);
    served = await copyBuild(first);
    server = await startServer({ WEB_DIST: served });
  });
  afterAll(async () => {
    await server?.stop();
    for (const dir of [first, next?.dir, served]) if (dir) await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await installBuild(served, first, false);
    b = await openBrowser(server.baseUrl);
    await signIn(b.page, 'clinician@demo.local');
    await b.page.waitForURL('**/group/list');
    await b.page.getByTestId('study-card').first().waitFor();
  });
  afterEach(async () => {
    await b?.close();
  });

  it("opens a lazy page from the previous build's chunks, which the rebuild kept", async () => {
    const { chunks, seen } = watch(b.page);
    await installBuild(served, next.dir, true);

    await openSettings(b.page);
    expect(seen.loads).toBe(0);
    expect(chunks).toHaveLength(1);
    const [chunk] = chunks;
    expect(chunk?.status).toBe(200);
    // The open page asked for its own build's chunk, not the new one.
    expect([...next.renamed.keys()].some((name) => chunk?.url === `/assets/${name}`)).toBe(true);
    expect(await b.page.evaluate((key) => sessionStorage.getItem(key), RELOAD_MARKER)).toBeNull();
    expect(b.errors).toEqual([]);
  });

  it('reloads once onto the new build when the previous chunks are gone (a new container image)', async () => {
    const { chunks, seen } = watch(b.page);
    await installBuild(served, next.dir, false);

    await openSettings(b.page);
    // The old chunk answered 404, the page reloaded once, and the new build's chunk opened the page.
    expect(chunks.map((c) => c.status)).toEqual([404, 200]);
    expect([...next.renamed.values()].some((name) => chunks[1]?.url === `/assets/${name}`)).toBe(true);
    expect(seen.loads).toBe(1);
    expect(await b.page.evaluate((key) => sessionStorage.getItem(key), RELOAD_MARKER)).toMatch(/^\d+$/);
    // Still signed in: the session lives in the tab's session storage, which a reload keeps.
    expect(b.page.url()).toMatch(/\/account-settings$/);
    expect(b.errors.filter((e) => !/status of 404/.test(e))).toEqual([]);
  });

  it('does not reload again when the chunk is still missing right after such a reload', async () => {
    const { chunks, seen } = watch(b.page);
    // As if this tab had just reloaded for a missing chunk.
    await b.page.evaluate((key) => sessionStorage.setItem(key, String(Date.now())), RELOAD_MARKER);
    await installBuild(served, next.dir, false);

    await b.page.getByRole('button', { name: 'User menu' }).click();
    await b.page.getByRole('menuitem', { name: 'Account settings' }).click();
    // The failure shows instead of a reload loop.
    await b.page
      .getByText(/dynamically imported module/)
      .first()
      .waitFor();
    expect(seen.loads).toBe(0);
    expect(chunks.map((c) => c.status)).toEqual([404]);
  });
});
