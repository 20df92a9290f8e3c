import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { apiGet, apiLogin, apiPost, signIn } from '../support/actions';

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
      tab.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('audit-log.csv');
    const csv = await readFile(await download.path(), 'utf8');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toMatch(/^when,action,outcome/);
    expect(lines.slice(1).every((l) => l.includes('"LOGIN"'))).toBe(true);
    expect(lines.some((l) => l.includes('"FAILURE"') && l.includes('viewer@demo.local'))).toBe(true);
  });

  it("reads a search's filters in words, takes From and To in the Profile's format and zone, and names studies in the CSV", async () => {
    // The officer's Profile: days as DD-MM-YYYY, clocks of Auckland (never the browser's UTC).
    const zone = 'Pacific/Auckland';
    const sid = await apiLogin(baseUrl, ADMIN);
    await apiPost(baseUrl, 'user/set', { sid, date_format: 'DD-MM-YYYY', time_zone: zone });
    try {
      await signIn(b.page, ADMIN);
      await b.page.waitForURL('**/group/list');
      // A search of one group in the inbox, and a study read through the api: both are in the log.
      const { studies } = await apiGet<{ studies: { uuid: string; patient_name: string }[] }>(
        baseUrl,
        'study/list',
        { sid, 'page.rows': '1' },
      );
      const study = studies[0]!;
      await apiPost(baseUrl, 'study/get', { sid, uuid: study.uuid });
      const patient = study.patient_name.split('^').filter(Boolean).join(', ');
      await b.page
        .getByRole('navigation')
        .first()
        .getByRole('button', { name: 'Emergency', exact: true })
        .click();
      await b.page.getByTestId('study-card').first().waitFor();

      await b.page.goto('/organization/audit.html');
      const table = b.page.getByRole('table', { name: 'Audit Log' });
      await table.waitFor();
      await b.page.getByRole('combobox', { name: 'Action' }).fill('Study search');
      await b.page.getByRole('option', { name: 'Study search', exact: true }).click();
      const search = table.getByRole('row').filter({ hasText: 'Group is Emergency' }).first();
      await search.waitFor();
      expect(await table.textContent()).not.toMatch(/filter\.|phi_namespace/);

      const from = b.page.getByLabel('From', { exact: true });
      expect(await from.getAttribute('placeholder')).toBe('DD-MM-YYYY');
      const dayIn = (ms: number) => {
        const p = Object.fromEntries(
          new Intl.DateTimeFormat('en-GB', {
            timeZone: zone,
            year: 'numeric',
            month: '2-digit',
            day: '2-digit',
          })
            .formatToParts(new Date(ms))
            .map((x) => [x.type, x.value]),
        );
        return `${p.day}-${p.month}-${p.year}`;
      };
      // Today in Auckland from midnight keeps the search; from tomorrow there, nothing is left.
      await from.fill(dayIn(Date.now()));
      await b.page.getByLabel('From time').fill('00:00');
      await search.waitFor();
      await screenshot(b.page, 'admin-audit-search-filters');
      await from.fill(dayIn(Date.now() + 86_400_000));
      await b.page.getByText('No events found').waitFor();
      await b.page.getByRole('button', { name: 'Clear filters' }).click();

      await b.page.getByRole('combobox', { name: 'Action' }).fill('Study viewed');
      await b.page.getByRole('option', { name: 'Study viewed', exact: true }).click();
      await table.getByRole('row').filter({ hasText: patient }).first().waitFor();
      const [download] = await Promise.all([
        b.page.waitForEvent('download'),
        b.page.getByRole('button', { name: 'Export CSV' }).click(),
      ]);
      const [head, ...rows] = (await readFile(await download.path(), 'utf8')).trim().split('\r\n');
      const columns = head!.split(',');
      expect(columns).toEqual(expect.arrayContaining(['study_uuid', 'patient_name']));
      const viewed = rows.find((r) => r.includes(`"${patient}"`));
      expect(viewed, `a STUDY_VIEW row of ${patient}`).toBeDefined();
      expect(viewed).toContain(`"${study.uuid}","${patient}"`);
    } finally {
      await apiPost(baseUrl, 'user/set', { sid, date_format: 'MM-DD-YYYY', time_zone: '' });
    }
  });

  it('tells a member without audit_view they may not read it', async () => {
    await signIn(b.page, 'clinician@demo.local');
    await b.page.waitForURL('**/group/list');
    await b.page.goto('/organization/audit.html');
    await b.page.getByText("You don't have enough permissions to read the audit log").waitFor();
  });
});
