import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { apiLogin, apiPost, signIn } from '../support/actions';
import { TABLES } from '../support/english-leaks';
import { settled } from '../support/english-walk';
import { chooseDestination } from '../support/upload-wizard';

const baseUrl = inject('baseUrl');

/** Real DICOM files from other tools (pydicom's test set), for the upload wizard's Select Exams. */
const PYDICOM_FILES = '/usr/lib/python3/dist-packages/pydicom/data/test_files';
const REAL_FILES = ['CT_small.dcm', 'MR_small.dcm', 'liver_1frame.dcm', 'rtplan.dcm', 'test-SR.dcm'];

type Language = 'en' | 'fr';
const WINDOWS = [
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
];
const CASES = WINDOWS.flatMap((w) => (['en', 'fr'] as const).map((language) => ({ ...w, language })));

/** A text as the page shows it in `language`. */
const wordsOf = (language: Language) => (english: string) =>
  language === 'en' ? english : ((TABLES.fr as Record<string, string>)[english] ?? english);

/** Signs `login` in with `language` as their language; the caller puts it back with `resetLanguage`. */
async function openAs(login: string, language: Language, width: number, height: number) {
  const sid = await apiLogin(baseUrl, login);
  await apiPost(baseUrl, 'user/set', { sid, language });
  const b = await openBrowser(baseUrl);
  await b.page.setViewportSize({ width, height });
  await signIn(b.page, login);
  await b.page.waitForURL('**/group/list');
  return b;
}
async function resetLanguage(login: string) {
  const sid = await apiLogin(baseUrl, login);
  await apiPost(baseUrl, 'user/set', { sid, language: '' });
}

/** The tops of the exam panel's tabs (one value per row they take) and the tab labels cut inside their tab. */
function tabRows(page: Page) {
  return page.evaluate(() => {
    const tabs = Array.from(document.querySelectorAll<HTMLElement>('aside [role="tablist"] [role="tab"]'));
    return {
      count: tabs.length,
      rows: [...new Set(tabs.map((tab) => Math.round(tab.getBoundingClientRect().top)))].length,
      cut: tabs.filter((tab) => tab.scrollWidth > tab.clientWidth + 1).map((tab) => tab.textContent),
    };
  });
}

/** How many lines an element's text takes: its height over its line height. */
function linesOf(locator: Locator): Promise<number> {
  return locator.evaluate((el) => {
    const style = getComputedStyle(el);
    const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2;
    const padding = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
    return Math.round((el.getBoundingClientRect().height - padding) / line);
  });
}

/** The result list's title ("PACS Intake · Nominations (4 exams)"). */
const listTitle = (page: Page) => page.locator('main h2').filter({ has: page.getByTestId('study-total') });

/** The search form's controls: how many rows they take, and each button's text lines. */
function searchBarRows(page: Page) {
  return page.evaluate(() => {
    const form = document.querySelector<HTMLElement>('form[role="search"]')!;
    const children = Array.from(form.children) as HTMLElement[];
    const middles = children.map((c) => {
      const r = c.getBoundingClientRect();
      return r.top + r.height / 2;
    });
    const buttons = Array.from(form.querySelectorAll<HTMLElement>('button')).map((button) => {
      const style = getComputedStyle(button);
      const padding = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
      return {
        text: button.textContent,
        lines: Math.round((button.getBoundingClientRect().height - padding) / parseFloat(style.lineHeight)),
      };
    });
    return {
      spread: Math.max(...middles) - Math.min(...middles),
      formRight: form.getBoundingClientRect().right,
      buttons,
    };
  });
}

/**
 * A wide table's column: visible in its scrolling frame as shown, or reached by scrolling the frame
 * sideways while the frame shows its "more this way" cue. Returns what was seen.
 */
async function columnReachable(frame: Locator, header: Locator) {
  const seen = async () => {
    const f = (await frame.boundingBox())!;
    const h = (await header.boundingBox())!;
    return h.x >= f.x - 1 && h.x + h.width <= f.x + f.width + 1;
  };
  if (await seen()) return 'visible';
  const cue = await frame.evaluate((el) => el.parentElement?.getAttribute('data-scroll-cue') ?? 'none');
  await header.evaluate((el) => el.scrollIntoView({ block: 'nearest', inline: 'nearest' }));
  await frame.page().waitForTimeout(100);
  return (await seen()) ? `reached with cue ${cue}` : 'not reachable';
}

describe.each(CASES)('layout at $width×$height in $language', ({ width, height, language }) => {
  const words = wordsOf(language);
  const name = (screen: string) => `layout-${width}x${height}-${language}-${screen}`;
  let clinician: BrowserSession;
  let gatekeeper: BrowserSession;
  beforeAll(async () => {
    clinician = await openAs('clinician@demo.local', language, width, height);
    gatekeeper = await openAs('gatekeeper@demo.local', language, width, height);
  });
  afterAll(async () => {
    await clinician?.close();
    await gatekeeper?.close();
    await resetLanguage('clinician@demo.local');
    await resetLanguage('gatekeeper@demo.local');
  });

  it('the search bar and the list title each hold one line, and the exam tabs one row', async () => {
    const page = clinician.page;
    await page.getByTestId('study-card').first().waitFor();
    await settled(page);
    const bar = await searchBarRows(page);
    expect(bar.buttons.filter((b) => b.lines !== 1)).toEqual([]);
    expect(bar.spread).toBeLessThan(4);
    expect(bar.formRight).toBeLessThanOrEqual(width);
    expect(await linesOf(listTitle(page))).toBe(1);
    await page.getByTestId('study-card').first().getByRole('button').first().click();
    await page.locator('aside [role="tab"]').first().waitFor();
    await settled(page);
    await screenshot(page, name('exam-panel'));
    const tabs = await tabRows(page);
    expect(tabs.count).toBeGreaterThan(3);
    expect(tabs).toMatchObject({ rows: 1, cut: [] });
    // Every tab can be opened: the strip scrolls the chosen one into view.
    const last = page.locator('aside [role="tab"]').last();
    await last.click();
    await expect.poll(() => last.getAttribute('aria-selected')).toBe('true');
    // The list scrolls inside its scroller: the scroller's box is what the user sees of the strip.
    const strip = (await page.locator('aside .MuiTabs-scroller').boundingBox())!;
    const box = (await last.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(strip.x + strip.width + 1);
  });

  it("PACS Intake's nominations: the title on one line, the Process tab in one row of tabs", async () => {
    const page = gatekeeper.page;
    await page.getByRole('button', { name: 'PACS Intake' }).click();
    await page.waitForURL(/\/Nominations$/);
    await page.getByTestId('study-card').first().waitFor();
    await settled(page);
    expect(await linesOf(listTitle(page))).toBe(1);
    await page.getByTestId('study-card').first().getByRole('button').first().click();
    const process = page.locator('aside [id$="-tab-process"]');
    await process.click();
    await settled(page);
    await screenshot(page, name('gatekeeper-process'));
    expect(await tabRows(page)).toMatchObject({ rows: 1, cut: [] });
  });

  it('the date picker shows the previous and the current month', async () => {
    const page = clinician.page;
    await page.goto('/group/list');
    await page.getByTestId('study-card').first().waitFor();
    await page
      .getByRole('button', { name: words('Advanced search') })
      .first()
      .click();
    await page.locator('input[aria-haspopup="dialog"]').first().click();
    const picker = page.getByRole('dialog').last();
    await picker.getByRole('button', { name: words('Custom date range') }).click();
    const grids = picker.getByRole('grid');
    await grids.first().waitFor();
    await screenshot(page, name('date-picker'));
    const now = new Date();
    const month = (d: Date) =>
      d
        .toLocaleString(language === 'fr' ? 'fr-FR' : 'en-US', { month: 'long', year: 'numeric' })
        .toLowerCase();
    expect((await grids.nth(0).getAttribute('aria-label'))?.toLowerCase()).toBe(
      month(new Date(now.getFullYear(), now.getMonth() - 1, 1)),
    );
    expect((await grids.nth(1).getAttribute('aria-label'))?.toLowerCase()).toBe(month(now));
    // The whole picker is in the window.
    const box = (await picker.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    expect(box.y + box.height).toBeLessThanOrEqual(height);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
  });

  it('the Advanced UI shows its key columns through Uploaded and reaches the others with a cue', async () => {
    const page = clinician.page;
    await page.goto('/worklist');
    await page.getByTestId('worklist-row').first().waitFor();
    await settled(page);
    await screenshot(page, name('advanced-ui'));
    const frame = page.getByTestId('worklist-scroll');
    const header = (label: string) => frame.getByRole('columnheader', { name: words(label) });
    // The key columns (who, which, when, what, uploaded when) in view; the rest reached with a cue.
    for (const key of ['Patient name', 'MRN', 'Study date', 'Modality', 'Uploaded'])
      expect([key, await columnReachable(frame, header(key))]).toEqual([key, 'visible']);
    expect(await columnReachable(frame, header('Group'))).toMatch(/^(visible|reached with cue end)$/);
    expect(await columnReachable(frame, header('Patient name'))).toBe('visible');
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBe(0);
  });

  it('Select Exams shows Patient name, Study date and Modality whole, and reaches Size', async () => {
    const page = clinician.page;
    const folder = await mkdtemp(path.join(tmpdir(), 'imaging-inbox-layout-'));
    try {
      await Promise.all(REAL_FILES.map((f) => copyFile(path.join(PYDICOM_FILES, f), path.join(folder, f))));
      await page.goto('/study/upload');
      if (language === 'en') await chooseDestination(page);
      else {
        await page.getByRole('combobox', { name: words('Destination') }).click();
        await page.getByRole('option', { name: 'Emergency' }).click();
        await page.getByRole('button', { name: words('Next') }).click();
      }
      await page.getByLabel(words('DICOM folder')).setInputFiles(folder);
      await page
        .getByText(language === 'en' ? /exams? found in \d+ files/ : /trouvés? dans \d+ fichiers/)
        .waitFor();
      await page.getByRole('button', { name: words('Next') }).click();
      const frame = page.getByRole('region', { name: words('Exams found') });
      await frame.getByRole('row').nth(1).waitFor();
      await settled(page);
      await screenshot(page, name('select-exams'));
      const header = (label: string) => frame.getByRole('columnheader', { name: words(label) });
      for (const key of ['Patient name', 'Study date', 'Modality'])
        expect([key, await columnReachable(frame, header(key))]).toEqual([key, 'visible']);
      expect(await header('Modality').evaluate((th) => th.scrollWidth <= th.clientWidth + 1)).toBe(true);
      expect(await columnReachable(frame, header('Size'))).toMatch(/^(visible|reached with cue end)$/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('notification toggles stay on one row, and stacked snackbars leave the search bar uncovered', async () => {
    const page = gatekeeper.page;
    await page.goto('/account-settings?tab=notifications');
    const list = page.getByRole('list', { name: words('Notification preferences') });
    await list.getByRole('listitem').first().waitFor();
    await settled(page);
    await screenshot(page, name('notifications'));
    // Each row: the group's name and one switch per toggle, side by side on one line.
    const rows = await list.evaluate((ul) =>
      Array.from(ul.querySelectorAll<HTMLElement>(':scope > li')).map((li) => {
        const parts = Array.from(li.children) as HTMLElement[];
        const middles = parts.map((p) => p.getBoundingClientRect().top + p.offsetHeight / 2);
        return {
          switches: li.querySelectorAll('input[role="switch"]').length,
          oneRow: Math.max(...middles) - Math.min(...middles) < 6,
        };
      }),
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((r) => !r.oneRow || r.switches < 2)).toEqual([]);
    // Three saves in a row stack three snackbars; four leave the preference as it was.
    const toggle = list.getByRole('switch').first();
    for (let i = 0; i < 4; i++) {
      await toggle.click();
      await page.waitForTimeout(150);
    }
    await page.locator('.notistack-Snackbar').nth(2).waitFor();
    await screenshot(page, name('notifications-snackbars'));
    const search = (await page.getByRole('search').boundingBox())!;
    const covering = await page.locator('.notistack-Snackbar').evaluateAll(
      (snacks, bar) =>
        snacks.filter((s) => {
          const r = s.getBoundingClientRect();
          return r.bottom > bar.y && r.top < bar.y + bar.height && r.height > 0;
        }).length,
      search,
    );
    expect(covering).toBe(0);
  });
});

describe.each(CASES)('the audit log at $width×$height in $language', ({ width, height, language }) => {
  it('shows every column or reaches it sideways with a cue', async () => {
    const words = wordsOf(language);
    const b = await openAs('admin@demo.local', language, width, height);
    try {
      await b.page.goto('/organization/audit.html');
      const table = b.page.getByRole('table', { name: words('Audit Log') });
      await table.locator('tbody tr').first().waitFor();
      await settled(b.page);
      await screenshot(b.page, `layout-${width}x${height}-${language}-audit-log`);
      expect(
        await b.page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        ),
      ).toBe(0);
    } finally {
      await b.close();
      await resetLanguage('admin@demo.local');
    }
  });
});
