import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const SCREENSHOTS = path.resolve(import.meta.dirname, '../screenshots');

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** console errors and uncaught page errors seen so far */
  errors: string[];
  close: () => Promise<void>;
}

/** Debian's Chromium with a throw-away profile; never downloads a browser. */
export async function openBrowser(baseUrl: string): Promise<BrowserSession> {
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'imaging-inbox-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    baseURL: baseUrl,
    viewport: { width: 1440, height: 900 },
  });
  // Every frame (the inbox, the viewer iframe, the public pages) reports what its Content-Security-
  // Policy refused, so a spec that asserts no errors also asserts no CSP violation.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(
        `CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'}` +
          ` (${event.sourceFile || 'page'}:${event.lineNumber}:${event.columnNumber})`,
      ),
    );
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('console', (message) => {
    // A refused sign-in answers 412 and an ended session 401; the browser logs those loads itself.
    if (message.type() === 'error' && !/status of 4(01|12)/.test(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return {
    context,
    page,
    errors,
    close: async () => {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/** The smallest window the product is laid out for (a 13-inch laptop): every screenshot is also taken at it. */
export const SMALL_WINDOW = { width: 1280, height: 800 } as const;

/**
 * Writes `<name>.png` at the page's window size and, when that is another size, `<name>-1280x800.png`
 * too, so every screen a browser test shows is also seen as a laptop shows it. The window goes back
 * to its size afterwards.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  // Let MUI's enter transitions (about 225 ms) finish so the picture is not caught mid-fade.
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: false });
  const size = page.viewportSize();
  if (!size || (size.width === SMALL_WINDOW.width && size.height === SMALL_WINDOW.height)) return;
  await page.setViewportSize(SMALL_WINDOW);
  // Layout and popovers follow the resize within a frame or two.
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-1280x800.png`), fullPage: false });
  await page.setViewportSize(size);
  await page.waitForTimeout(100);
}
