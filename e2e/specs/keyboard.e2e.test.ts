import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowser, type BrowserSession } from '../support/browser';
import { DEMO_PASSWORD } from '../support/server';

const baseUrl = inject('baseUrl');

/** Presses Tab until the focused element's accessible text matches, failing after `max` presses. */
async function tabTo(page: Page, pattern: RegExp, max = 80): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    const label = await page.evaluate(() => {
      const el = document.activeElement;
      return `${el?.getAttribute('aria-label') ?? ''} ${el?.textContent ?? ''}`.trim();
    });
    if (pattern.test(label)) return;
  }
  throw new Error(`never reached ${String(pattern)} with Tab`);
}

describe('keyboard only', () => {
  let b: BrowserSession;
  beforeAll(async () => {
    b = await openBrowser(baseUrl);
  });
  afterAll(async () => {
    await b.close();
  });

  it('signs in, picks a state and opens a study without a mouse', async () => {
    await b.page.goto('/');
    // The sign-in page is a lazy chunk: wait until its username field has taken focus, or the
    // first keystrokes go nowhere.
    await b.page.getByLabel('Username').waitFor();
    await b.page.waitForFunction(() => document.activeElement instanceof HTMLInputElement);
    await b.page.keyboard.type('clinician@demo.local'); // the username field has focus
    await b.page.keyboard.press('Tab');
    await b.page.keyboard.type(DEMO_PASSWORD);
    await b.page.keyboard.press('Enter');
    await b.page.waitForURL('**/group/list');
    await b.page.getByTestId('study-card').first().waitFor();

    await tabTo(b.page, /^Emergency$/);
    await b.page.keyboard.press('Enter');
    await b.page.waitForURL(/\/Inbox$/);
    await tabTo(b.page, /^Shared$/);
    await b.page.keyboard.press('Enter');
    await b.page.waitForURL(/\/Shared$/);

    await b.page.keyboard.press('Shift+Tab'); // Inbox is just above Shared
    await b.page.keyboard.press('Enter');
    await b.page.waitForURL(/\/Inbox$/);
    await b.page.getByTestId('study-card').first().waitFor();
    await tabTo(b.page, /^Open /);
    await b.page.keyboard.press('Enter');
    await b.page.getByRole('tab', { name: 'Summary' }).waitFor();
    expect(b.errors).toEqual([]);
  });
});
