import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { signIn } from '../support/actions';

const baseUrl = inject('baseUrl');
const ADMIN = 'admin@demo.local';

describe('administration: the audit log', () => {
  let b: BrowserSession;
  beforeEach(async () => {
    b = await openBrowser(baseUrl);
  });
  afterEach(async () => {
    await b.close();
  });

  it('shows a failed sign-in to the privacy officer, filters by action and exports the CSV', async () => {
    // A member mistypes their password in the sign-in page.
    const other = await openBrowser(baseUrl);
    try {
      await signIn(other.page, 'viewer@demo.local', 'not-the-password-1');
      await other.page.getByRole('alert').waitFor();
    } finally {
      await other.close();
    }

    await signIn(b.page, ADMIN);
    await b.page.waitForURL('**/group/list');
    await b.page.getByRole('button', { name: 'User menu' }).click();
    const [tab] = await Promise.all([
      b.context.waitForEvent('page'),
      b.page.getByRole('menuitem', { name: /^Audit Log/ }).click(),
    ]);
    await tab.waitForURL('**/organization/audit.html');
    const table = tab.getByRole('table', { name: 'Audit Log' });
    await table.waitFor();
    const failed = table
      .getByRole('row')
      .filter({ hasText: 'viewer@demo.local' })
      .filter({ hasText: 'Failed' });
    await failed.first().waitFor();
    expect(await failed.first().textContent()).toContain('Sign-in');
    await screenshot(tab, 'admin-audit');

    await tab.getByRole('combobox', { name: 'Action' }).fill('Sign-in');
    await tab.getByRole('option', { name: 'Sign-in', exact: true }).click();
    await tab.waitForFunction(() =>
      Array.from(document.querySelectorAll('table[aria-label="Audit Log"] tbody tr')).every((r) =>
        r.textContent?.includes('Sign-in'),
      ),
    );

    const [download] = await Promise.all([
      tab.waitForEvent('download'),
      tab.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('audit-log.csv');
    const csv = await readFile(await download.path(), 'utf8');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toMatch(/^when,action,outcome/);
    expect(lines.slice(1).every((l) => l.includes('"LOGIN"'))).toBe(true);
    expect(lines.some((l) => l.includes('"FAILURE"') && l.includes('viewer@demo.local'))).toBe(true);
  });

  it('tells a member without audit_view they may not read it', async () => {
    await signIn(b.page, 'clinician@demo.local');
    await b.page.waitForURL('**/group/list');
    await b.page.goto('/organization/audit.html');
    await b.page.getByText("You don't have enough permissions to read the audit log").waitFor();
  });
});
