import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { signIn } from '../support/actions';

const baseUrl = inject('baseUrl');

describe('Advanced UI (/worklist)', () => {
  let b: BrowserSession;
  beforeAll(async () => {
    b = await openBrowser(baseUrl);
  });
  afterAll(async () => {
    await b.close();
  });

  it('lists the search as a table, sorts, selects by keyboard and opens a study in the inbox', async () => {
    await signIn(b.page, 'admin@demo.local');
    await b.page.waitForURL('**/group/list');
    await b.page.goto('/worklist');
    const rows = b.page.getByTestId('worklist-row');
    await rows.first().waitFor();
    const table = await b.page.getByRole('table', { name: 'Exams' }).innerText();
    expect(table).not.toContain('^');
    expect(table).not.toMatch(/\b(19|20)\d{6}\b/);

    await b.page.getByRole('button', { name: 'Patient name' }).click();
    await expect
      .poll(() => b.page.getByRole('columnheader', { name: 'Patient name' }).getAttribute('aria-sort'))
      .toBe('ascending');
    const names = await rows.evaluateAll((trs) => trs.map((tr) => tr.children[1]?.textContent ?? ''));
    expect(names).toEqual([...names].sort((x, y) => x.localeCompare(y)));

    await screenshot(b.page, 'worklist');

    await rows.first().focus();
    await b.page.keyboard.press('Space');
    await b.page.keyboard.press('ArrowDown');
    await b.page.keyboard.press('Space');
    await expect
      .poll(() => b.page.locator('[data-testid="worklist-row"][aria-selected="true"]').count())
      .toBe(2);
    await b.page.getByRole('complementary', { name: 'Selected exams' }).waitFor();
    await screenshot(b.page, 'worklist-selected');

    await b.page.keyboard.press('Enter');
    await b.page.waitForURL(/\/group\/[^/]+\/Inbox\?study=/);
    expect(b.errors).toEqual([]);
  });

  it('keeps every column reachable: the table scrolls sideways inside its area, with or without a selection', async () => {
    await b.page.goto('/worklist');
    const rows = b.page.getByTestId('worklist-row');
    await rows.first().waitFor();
    const panel = b.page.getByRole('complementary', { name: 'Selected exams' });
    for (const [width, height] of [
      [1280, 800],
      [1440, 900],
      [1920, 1080],
    ] as const) {
      await b.page.setViewportSize({ width, height });
      for (const selected of [false, true]) {
        const isSelected = (await rows.first().getAttribute('aria-selected')) === 'true';
        if (selected !== isSelected) await rows.first().getByRole('checkbox').click();
        if (selected) await panel.waitFor();
        else await panel.waitFor({ state: 'detached' });
        await screenshot(b.page, `worklist-${width}x${height}${selected ? '-selected' : ''}`);
        // Nothing of the page runs past the window; the table's own area scrolls instead.
        expect(await b.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        const last = b.page.getByRole('columnheader', { name: 'Uploaded' });
        await last.scrollIntoViewIfNeeded();
        const box = (await last.boundingBox())!;
        const area = (await b.page.getByTestId('worklist-scroll').boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(area.x + area.width + 1);
        expect(box.x).toBeGreaterThanOrEqual(area.x - 1);
        // The patient name stays in view while the table is scrolled to its end.
        const name = (await b.page.getByRole('columnheader', { name: 'Patient name' }).boundingBox())!;
        expect(name.x).toBeGreaterThanOrEqual(area.x - 1);
        await b.page.getByTestId('worklist-scroll').evaluate((el) => (el.scrollLeft = 0));
      }
    }
    await rows.first().getByRole('checkbox').click();
    expect(b.errors).toEqual([]);
  });
});
