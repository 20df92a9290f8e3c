import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, SCREENSHOTS, type BrowserSession } from '../support/browser';
import { signIn } from '../support/actions';
import { REPO_ROOT, startServer, type RunningServer } from '../support/server';

const DIST = path.join(REPO_ROOT, 'apps/web/dist');
const figures: Record<string, number> = {};

/** The JavaScript the sign-in page loads before anything else: the entry script and its preloads. */
async function initialJsGzipBytes(): Promise<number> {
  const html = await readFile(path.join(DIST, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  let total = 0;
  for (const file of new Set(files)) total += gzipSync(await readFile(path.join(DIST, file))).length;
  return total;
}

// A benchmark, not a test: `npm run bench:web` prints the figures (budgets: every script of the
// sign-in page under 150 KB as sent, 50 cards within 1 s of the login answer, next page within 1 s).
describe('web performance figures', () => {
  let server: RunningServer;
  let b: BrowserSession;
  beforeAll(async () => {
    // Enough studies that the first state fills a whole 50-card page.
    server = await startServer({ SEED_STUDIES: '400' });
    b = await openBrowser(server.baseUrl);
  });
  afterAll(async () => {
    await b?.close();
    await server?.stop();
    await mkdir(SCREENSHOTS, { recursive: true });
    await writeFile(path.join(SCREENSHOTS, 'web-bench.json'), `${JSON.stringify(figures, null, 2)}\n`);
    console.log('web bench', figures);
  });

  it('measures the gzipped JavaScript of the sign-in page', async () => {
    figures.initialJsGzipKB = Math.round((await initialJsGzipBytes()) / 1024);
    expect(figures.initialJsGzipKB).toBeGreaterThan(0);
  });

  it('counts every script the sign-in page loads until the network is idle, as sent', async () => {
    // A first visit: nothing cached, so every script crosses the network in the encoding the
    // server chose for the browser's Accept-Encoding.
    await b.page.goto('/', { waitUntil: 'networkidle' });
    await b.page.getByRole('button', { name: 'Sign in' }).waitFor();
    await b.page.waitForLoadState('networkidle');
    const scripts = await b.page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => e as PerformanceResourceTiming)
        .filter((e) => new URL(e.name).pathname.endsWith('.js'))
        .map((e) => ({ sent: e.encodedBodySize, size: e.decodedBodySize })),
    );
    figures.signInScripts = scripts.length;
    figures.signInScriptsSentKB = Math.round(scripts.reduce((n, s) => n + s.sent, 0) / 1024);
    figures.signInScriptsDecodedKB = Math.round(scripts.reduce((n, s) => n + s.size, 0) / 1024);
    expect(figures.signInScripts).toBeGreaterThan(0);
  });

  it('times signing in until 50 cards show', async () => {
    // Warm the browser cache with the app's chunks as a returning user would have them.
    await signIn(b.page, 'clinician@demo.local');
    await b.page.waitForURL('**/group/list');
    await b.page.getByTestId('study-card').nth(49).waitFor();
    await b.page.evaluate(() => sessionStorage.clear());
    await b.page.goto('/');
    await b.page.getByLabel('Username').fill('clinician@demo.local');
    await b.page.getByLabel('Password').first().fill('Demo-pass-2024');
    const started = Date.now();
    let loggedIn = 0;
    b.page.on('response', (r) => {
      if (r.url().endsWith('/session/login')) loggedIn = Date.now();
    });
    await b.page.getByRole('button', { name: 'Sign in' }).click();
    await b.page.getByTestId('study-card').nth(49).waitFor();
    const done = Date.now();
    figures.signInClickTo50CardsMs = done - started;
    // The budget counts from the login answer: the server's password hashing is not the page's.
    figures.loginAnswerTo50CardsMs = done - loggedIn;
    expect(figures.loginAnswerTo50CardsMs).toBeGreaterThan(0);
  });

  it('times paging to the next 50', async () => {
    const before = await b.page.locator('[data-testid="study-card"] h3').first().textContent();
    const started = Date.now();
    await b.page.getByRole('button', { name: 'Go to next page' }).click();
    await b.page.waitForFunction(
      (first) =>
        document.querySelector('[data-testid="study-card"] h3')?.textContent !== first &&
        !document.querySelector('[aria-busy="true"]'),
      before,
    );
    figures.nextPageMs = Date.now() - started;
    expect(figures.nextPageMs).toBeGreaterThan(0);
  });
});
