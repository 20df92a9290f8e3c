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
});
