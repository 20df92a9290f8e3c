import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { apiLogin, apiPost, signIn } from '../support/actions';

const baseUrl = inject('baseUrl');
const ADMIN = 'admin@demo.local';

/** The state links of the clinician's Cardiology group, as the inbox shows them. */
async function cardiologyStates(b: BrowserSession): Promise<string[]> {
  const list = b.page.getByRole('list', { name: 'Cardiology states' });
  await list.getByRole('link').first().waitFor();
  return list.getByRole('link').allTextContents();
}

describe('administration: the account labels page', () => {
  let admin: BrowserSession;
  let clinician: BrowserSession;
  beforeEach(async () => {
    admin = await openBrowser(baseUrl);
    clinician = await openBrowser(baseUrl);
  });
  afterEach(async () => {
    await admin.close();
    await clinician.close();
    // The server is shared by every spec: leave no override behind, whatever happened above.
    const sid = await apiLogin(baseUrl, ADMIN);
    for (const language of ['en', 'fr', 'es'])
      await apiPost(baseUrl, 'label/delete', { sid, language, key: 'Deleted items' });
    const account = await apiPost<{ account_id: string }>(baseUrl, 'session/user', { sid });
    await apiPost(baseUrl, 'account/set', { sid, uuid: account.account_id, 'settings.default_language': '' });
  });

  it("an admin chooses the account's default language; it is still chosen after a reload", async () => {
    await signIn(admin.page, ADMIN);
    await admin.page.waitForURL('**/group/list');
    await admin.page.goto('/organization/labels.html');
    const section = admin.page.getByRole('region', { name: 'Default language of the account' });
    const select = section.getByLabel('Default language of the account');
    expect(await select.inputValue()).toBe('');
    await select.selectOption('fr');
    await section.getByRole('button', { name: 'Save' }).click();
    await admin.page.getByText('Default language saved').waitFor();
    await screenshot(admin.page, 'admin-labels-account-language');
    await admin.page.reload();
    await section.getByLabel('Default language of the account').waitFor();
    expect(await section.getByLabel('Default language of the account').inputValue()).toBe('fr');
    expect(admin.errors).toEqual([]);
  });

  it('an admin rewords an inbox label in English and a user of the account reads it after a reload', async () => {
    await signIn(clinician.page, 'clinician@demo.local');
    await clinician.page.waitForURL('**/group/list');
    expect(await cardiologyStates(clinician)).toContain('Deleted items');

    await signIn(admin.page, ADMIN);
    await admin.page.waitForURL('**/group/list');
    // The menu offers the page to the admin, in a new tab like the other Administration pages.
    await admin.page.getByRole('button', { name: 'User menu' }).click();
    const link = admin.page.getByRole('menuitem', { name: /^Labels/ });
    expect(await link.getAttribute('href')).toBe('/organization/labels.html');
    await admin.page.keyboard.press('Escape');
    await admin.page.goto('/organization/labels.html');
    await admin.page.getByText('No labels replaced yet.').waitFor();

    await admin.page.getByRole('button', { name: 'Add label' }).click();
    const dialog = admin.page.getByRole('dialog');
    await dialog.getByLabel('Original text').fill('Deleted items');
    await dialog.getByLabel('Replacement').fill('Recycle bin');
    await screenshot(admin.page, 'admin-labels-add');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const table = admin.page.getByRole('table', { name: 'Labels' });
    const row = table.getByRole('row', { name: /Recycle bin/ });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual([
      'English',
      'Deleted items',
      'Recycle bin',
      '',
    ]);
    await screenshot(admin.page, 'admin-labels');

    await clinician.page.reload();
    const states = await cardiologyStates(clinician);
    expect(states).toContain('Recycle bin');
    expect(states).not.toContain('Deleted items');

    // Edited, then deleted: the original text is back after the next reload.
    await row.getByRole('button', { name: 'Edit Deleted items' }).click();
    await dialog.getByLabel('Replacement').fill('Bin');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await table.getByRole('row', { name: /Bin/ }).waitFor();
    await clinician.page.reload();
    expect(await cardiologyStates(clinician)).toContain('Bin');

    admin.page.once('dialog', (question) => void question.accept());
    await table.getByRole('button', { name: 'Delete Deleted items' }).click();
    await admin.page.getByText('No labels replaced yet.').waitFor();
    await clinician.page.reload();
    expect(await cardiologyStates(clinician)).toContain('Deleted items');
  });

  it('keeps the page from a user of the account without label_edit', async () => {
    await signIn(clinician.page, 'clinician@demo.local');
    await clinician.page.waitForURL('**/group/list');
    await clinician.page.goto('/organization/labels.html');
    await clinician.page.getByText("You don't have enough permissions to change labels").waitFor();
    expect(await clinician.page.getByRole('table').count()).toBe(0);
  });
});
