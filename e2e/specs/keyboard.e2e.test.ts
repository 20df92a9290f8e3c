import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { apiLogin, apiPost } from '../support/actions';
import { uploadedStudy, uploadFreshStudy } from '../support/studies';
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

// The names typed and looked for here are English ones, whatever a spec before left set.
beforeAll(async () => {
  for (const login of ['clinician@demo.local', 'gatekeeper@demo.local'])
    await apiPost(baseUrl, 'user/set', { sid: await apiLogin(baseUrl, login), language: '' });
});

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

/**
 * What is wrong with the keyboard's focus now: nothing (null), or why it cannot be seen. The focused
 * element, or the MUI control it belongs to (a text box's outline, a checkbox's round), must draw an
 * outline or a shadow; the page itself holding focus is allowed (nothing is focused).
 */
async function focusProblem(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body || el === document.documentElement) return null;
    const drawn = (node: Element | null) => {
      if (!node) return false;
      const style = getComputedStyle(node);
      const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
      return outline || (style.boxShadow !== 'none' && style.boxShadow !== '');
    };
    if (drawn(el) || drawn(el.closest('.Mui-focusVisible, .Mui-focused'))) return null;
    // A dialog, menu or listbox container takes focus to hold it; its first control comes next.
    if (
      el.matches('[role="dialog"], [role="presentation"], [role="menu"], [role="listbox"], [tabindex="-1"]')
    )
      return null;
    return `focus not visible on <${el.tagName.toLowerCase()}> ${el.outerHTML.slice(0, 160)}`;
  });
}

/** The focused element's name as a user hears it: its label, or its text. */
async function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el) return '';
    const labelledBy = el.getAttribute('aria-labelledby');
    const byIds = labelledBy
      ?.split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ');
    const label = (el as HTMLInputElement).labels?.[0]?.textContent;
    return (el.getAttribute('aria-label') ?? byIds ?? label ?? el.textContent ?? '')
      .replace(/\s+/g, ' ')
      .trim();
  });
}

/** A key, then the check that the focus it leaves is visible. */
async function press(page: Page, key: string): Promise<void> {
  await page.keyboard.press(key);
  const problem = await focusProblem(page);
  if (problem) throw new Error(`after ${key}: ${problem}`);
}

/** Tab (or Shift+Tab) until the focused element's name matches and `also` holds; focus seen at each stop. */
async function tabUntil(
  page: Page,
  pattern: RegExp,
  options: { back?: boolean; max?: number; also?: () => Promise<boolean> } = {},
): Promise<void> {
  for (let i = 0; i < (options.max ?? 120); i += 1) {
    await press(page, options.back ? 'Shift+Tab' : 'Tab');
    if (pattern.test(await focusedName(page)) && (!options.also || (await options.also()))) return;
  }
  throw new Error(`never reached ${String(pattern)} with ${options.back ? 'Shift+Tab' : 'Tab'}`);
}

/** Goes to an exam tab with the keyboard: back to the tab list, arrows to the tab, Enter. */
async function examTab(page: Page, name: RegExp): Promise<void> {
  const onTab = () => page.evaluate(() => document.activeElement?.getAttribute('role') === 'tab');
  if (!(await onTab())) await tabUntil(page, /.*/, { back: true, also: onTab });
  for (let i = 0; i < 15 && !name.test(await focusedName(page)); i += 1) await press(page, 'ArrowRight');
  expect(await focusedName(page)).toMatch(name);
  await press(page, 'Enter');
}

/** Opens a dialog with Enter on the focused button, checks focus moved into it, closes it with Escape and checks focus came back. */
async function dialogRoundTrip(page: Page): Promise<void> {
  const opener = await page.evaluate(() => {
    (document.activeElement as HTMLElement).dataset.opener = '1';
    return document.activeElement?.outerHTML.slice(0, 120);
  });
  await press(page, 'Enter');
  await page.getByRole('dialog').waitFor();
  await expect
    .poll(() => page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]')), { timeout: 5_000 })
    .toBe(true);
  await press(page, 'Escape');
  await page.getByRole('dialog').waitFor({ state: 'hidden' });
  await expect
    .poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.opener === '1'), {
      timeout: 5_000,
    })
    .toBe(true);
  expect(await focusProblem(page), `focus back on ${opener}`).toBeNull();
  await page.evaluate(() => delete (document.activeElement as HTMLElement).dataset.opener);
}

/** Signs in with the keyboard alone: the username field has focus on the sign-in page. */
async function signInByKeyboard(page: Page, login: string): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Username').waitFor();
  await page.waitForFunction(() => document.activeElement instanceof HTMLInputElement);
  await page.keyboard.type(login);
  await press(page, 'Tab');
  await page.keyboard.type(DEMO_PASSWORD);
  await press(page, 'Enter');
  await page.waitForURL('**/group/list');
  await page.getByRole('navigation').first().waitFor();
}

describe('keyboard only, with the focus always seen', () => {
  const mrn = `KBD-${Date.now().toString(36).toUpperCase()}`;
  let lastName = '';
  const sessions: BrowserSession[] = [];
  beforeAll(async () => {
    const sid = await apiLogin(baseUrl, 'clinician@demo.local');
    // In the clinician's first group, where the search bar searches when they sign in.
    await uploadFreshStudy(baseUrl, sid, 'Cardiology', mrn);
    const study = await uploadedStudy(baseUrl, sid, mrn);
    lastName = String(study.patient_name).split('^')[0]!;
  });
  afterEach(async (ctx) => {
    const page = sessions.at(-1)?.page;
    if (page && ctx.task.result?.state === 'fail')
      await screenshot(page, `failed-keyboard-${ctx.task.name.replace(/\W+/g, '-')}`);
  });
  afterAll(async () => {
    for (const session of sessions) await session.close();
  });
  /** The focused element is the open button of this spec's exam. */
  const onOurCard = (page: Page) => () =>
    page.evaluate(
      (m) => !!document.activeElement?.closest('[data-testid="study-card"]')?.textContent?.includes(m),
      mrn,
    );

  it('a clinician searches, opens an exam, shares it and nominates it', async () => {
    const b = await openBrowser(baseUrl);
    sessions.push(b);
    const page = b.page;
    await signInByKeyboard(page, 'clinician@demo.local');

    await tabUntil(page, /^Patient name/);
    await page.keyboard.type(lastName);
    await press(page, 'Enter');
    await page.getByText(/^Search results in/).waitFor();
    await tabUntil(page, /^Open /, { also: onOurCard(page) });
    await press(page, 'Enter');
    await page.getByRole('tab', { name: 'Summary' }).waitFor();

    await examTab(page, /^Share$/);
    await tabUntil(page, /^Groups/);
    await page.keyboard.type('Emergency');
    await page.getByRole('option', { name: 'Emergency' }).waitFor();
    await press(page, 'ArrowDown');
    await press(page, 'Enter');
    await tabUntil(page, /^Share$/, {
      also: () => page.evaluate(() => document.activeElement?.tagName === 'BUTTON'),
    });
    await press(page, 'Enter');
    await page.getByText('Exam successfully shared.').waitFor();

    await examTab(page, /^PACS$/);
    await tabUntil(page, /^Reason for visit/);
    await page.keyboard.type('Outside CT for the tumour board');
    await tabUntil(page, /^Nominated by/);
    await page.keyboard.type('Dr Claire Clinician');
    await tabUntil(page, /^Nominate$/);
    await press(page, 'Enter');
    await page.getByLabel('Nomination status').getByText('Nominated to PACS Intake').waitFor();
    await tabUntil(page, /^View details$/, { back: true });
    await dialogRoundTrip(page);
    await screenshot(page, 'keyboard-01-nominated');
    expect(b.errors).toEqual([]);
  });

  it('the gatekeeper opens the nomination, looks at Reject, and sends it to the PACS', async () => {
    const b = await openBrowser(baseUrl);
    sessions.push(b);
    const page = b.page;
    await signInByKeyboard(page, 'gatekeeper@demo.local');
    await tabUntil(page, /^PACS Intake$/);
    await press(page, 'Enter');
    await tabUntil(page, /^Nominations/);
    await press(page, 'Enter');
    await page.waitForURL(/\/Nominations$/);
    await tabUntil(page, /^Open /, { also: onOurCard(page) });
    await press(page, 'Enter');
    await page.getByRole('tab', { name: 'Process' }).waitFor();
    await examTab(page, /^Process$/);

    await tabUntil(page, /^Reject$/);
    await dialogRoundTrip(page);
    await tabUntil(page, /^Process$/, {
      also: () => page.evaluate(() => document.activeElement?.tagName === 'BUTTON'),
    });
    await press(page, 'Enter');
    await tabUntil(page, /^Accession number/);
    await page.keyboard.type(mrn.slice(-10));
    await tabUntil(page, /^Send to PACS$/, {
      also: () => page.evaluate(() => document.activeElement?.tagName === 'BUTTON'),
    });
    await press(page, 'Enter');
    await page.getByText('Exam is being sent to PACS').first().waitFor();
    await page.waitForURL(/\/Queued$/);
    // The queued copy is made by the nomination's job, then found by the list's next refresh: seconds
    // on an idle machine, more on two busy cores.
    await page.getByTestId('study-card').filter({ hasText: mrn }).waitFor({ timeout: 90_000 });
    await screenshot(page, 'keyboard-02-sent');
    expect(b.errors).toEqual([]);
  }, 180_000);
});
