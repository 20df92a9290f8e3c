import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { apiLogin, apiPost, signIn } from '../support/actions';

const baseUrl = inject('baseUrl');
const ADMIN = 'admin@demo.local';

/** Opens the user menu and answers the Administration links it offers (label → href, target). */
async function administrationLinks(b: BrowserSession) {
  await b.page.getByRole('button', { name: 'User menu' }).click();
  const menu = b.page.getByRole('menu');
  await menu.waitFor();
  const links = await menu.locator('a[target="_blank"]').evaluateAll((anchors) =>
    anchors.map((a) => ({
      label: (a.textContent ?? '').trim(),
      href: a.getAttribute('href'),
      rel: a.getAttribute('rel'),
    })),
  );
  await b.page.keyboard.press('Escape');
  return links;
}

describe('administration: the menu, the users page and the groups page', () => {
  let b: BrowserSession;
  beforeEach(async () => {
    b = await openBrowser(baseUrl);
  });
  afterEach(async () => {
    await b.close();
  });

  it('shows Administration to admins only, each link opening in a new tab', async () => {
    await signIn(b.page, ADMIN);
    await b.page.waitForURL('**/group/list');
    const links = await administrationLinks(b);
    expect(links.map((l) => l.label)).toEqual(
      expect.arrayContaining(['Groups', 'Users', 'Routing Rules', 'Destinations']),
    );
    expect(links.find((l) => l.label === 'Users')?.href).toBe('/organization/users.html');
    expect(links.find((l) => l.label === 'Groups')?.href).toBe('/organization/groups.html');
    expect(links.find((l) => l.label === 'Routing Rules')?.href).toBe('/organization/routing-rules.html');
    // The Users link opens the page in a new tab.
    await b.page.getByRole('button', { name: 'User menu' }).click();
    const [tab] = await Promise.all([
      b.context.waitForEvent('page'),
      b.page.getByRole('menuitem', { name: /^Users/ }).click(),
    ]);
    await tab.waitForURL('**/organization/users.html');
    await tab.getByRole('table', { name: 'Users' }).waitFor();
    await tab.close();

    const other = await openBrowser(baseUrl);
    try {
      await signIn(other.page, 'clinician@demo.local');
      await other.page.waitForURL('**/group/list');
      expect(await administrationLinks(other)).toEqual([]);
      // The page itself tells a user without the permission so.
      await other.page.goto('/organization/users.html');
      await other.page.getByText("You don't have enough permissions to manage users").waitFor();
    } finally {
      await other.close();
    }
  });

  it('invites a user, gives them a role, disables and enables them', async () => {
    const sid = await apiLogin(baseUrl, ADMIN);
    const account = (await apiPost<{ accounts: { uuid: string }[] }>(baseUrl, 'account/list', { sid }))
      .accounts[0]!.uuid;
    const email = `invitee-${Date.now()}@hospital.example`;
    await signIn(b.page, ADMIN);
    await b.page.waitForURL('**/group/list');
    await b.page.goto('/organization/users.html');
    const table = b.page.getByRole('table', { name: 'Users' });
    await table.waitFor();
    await screenshot(b.page, 'admin-users');

    // A role to give, made on the Roles tab.
    await b.page.getByRole('tab', { name: 'Roles' }).click();
    await b.page.getByRole('button', { name: 'Add role' }).click();
    const roleDialog = b.page.getByRole('dialog');
    await roleDialog.getByLabel('Name').fill('Front desk');
    await roleDialog.getByLabel('View exams').check();
    await roleDialog.getByLabel('Upload exams').check();
    await screenshot(b.page, 'admin-role-dialog');
    await roleDialog.getByRole('button', { name: 'Save' }).click();
    await b.page.getByRole('table', { name: 'Roles' }).getByText('Front desk').waitFor();
    await b.page.getByRole('tab', { name: 'Users' }).click();

    await b.page.getByRole('button', { name: 'Invite user' }).click();
    const invite = b.page.getByRole('dialog');
    await invite.getByLabel('Email').fill('not-an-address');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await invite.getByText('Please enter a valid email').waitFor();
    await invite.getByLabel('Email').fill(email);
    await invite.getByLabel('Name').fill('Ivy Invitee');
    await screenshot(b.page, 'admin-invite');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await b.page.getByText('Invitation sent').waitFor();

    await b.page.getByLabel('Search users').fill('invitee');
    const row = table.getByRole('row', { name: /Ivy Invitee/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('Never');
    await row.getByRole('button', { name: 'Edit Ivy Invitee' }).click();
    const edit = b.page.getByRole('dialog');
    await edit.getByLabel('Role').click();
    await b.page.getByRole('option', { name: 'Front desk' }).click();
    await edit.getByRole('button', { name: 'Save' }).click();
    await b.page.getByText('User saved').waitFor();
    await expect.poll(async () => await row.textContent()).toContain('Front desk');

    // Enable needs a disabled user selected, disable an enabled one.
    const enableButton = b.page.getByRole('button', { name: 'Enable', exact: true });
    const disableButton = b.page.getByRole('button', { name: 'Disable', exact: true });
    expect(await enableButton.isDisabled()).toBe(true);
    expect(await disableButton.isDisabled()).toBe(true);
    await row.getByRole('checkbox').check();
    expect(await enableButton.isDisabled()).toBe(true);
    expect(await disableButton.isDisabled()).toBe(false);
    await disableButton.click();
    await b.page.getByText('Users disabled successfully').waitFor();
    await row.getByText('Disabled').waitFor();
    await screenshot(b.page, 'admin-users-disabled');
    const listed = await apiPost<{
      users: { email: string; enabled: number; account_role: { name: string } }[];
    }>(baseUrl, 'account/user/list', { sid, uuid: account, filter: email });
    expect(listed.users[0]).toMatchObject({ email, enabled: 0, account_role: { name: 'Front desk' } });

    await row.getByRole('checkbox').check();
    await enableButton.click();
    await b.page.getByText('Users enabled successfully').waitFor();
    await expect.poll(async () => await row.getByText('Disabled').count()).toBe(0);
  });

  it('adds a group, gives it a member with a role and deletes it', async () => {
    await signIn(b.page, ADMIN);
    await b.page.waitForURL('**/group/list');
    await b.page.goto('/organization/groups.html');
    const table = b.page.getByRole('table', { name: 'Groups' });
    await table.waitFor();
    await b.page.getByRole('button', { name: 'Add group' }).click();
    const dialog = b.page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Emergency');
    await dialog.getByLabel('Library').check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Another group of the account has this name.').waitFor();
    await dialog.getByLabel('Name').fill('Orthopedics');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const row = table.getByRole('row', { name: /Orthopedics/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('Library');

    const sid = await apiLogin(baseUrl, ADMIN);
    const account = (await apiPost<{ accounts: { uuid: string }[] }>(baseUrl, 'account/list', { sid }))
      .accounts[0]!.uuid;
    await apiPost(baseUrl, 'role/add', {
      sid,
      account_id: account,
      name: 'Ortho reader',
      permissions: 'study_view',
    });
    await b.page.reload();
    await row.getByRole('button', { name: 'Orthopedics', exact: true }).click();
    const section = b.page.getByRole('region', { name: 'Orthopedics' });
    await section.getByText('No members yet.').waitFor();
    await section.getByLabel('User').click();
    await b.page.getByRole('option', { name: /Vera Viewer/ }).click();
    await section.getByLabel('Role', { exact: true }).click();
    await b.page.getByRole('option', { name: 'Ortho reader' }).click();
    await section.getByRole('button', { name: 'Add member' }).click();
    await section
      .getByRole('table', { name: 'Members of Orthopedics' })
      .getByText('viewer@demo.local')
      .waitFor();
    await screenshot(b.page, 'admin-groups');

    // An admin's cloud group: its DICOM senders and promote-to-PACS list; a gatekeeper: its form.
    await table.getByRole('button', { name: 'Emergency', exact: true }).click();
    const emergency = b.page.getByRole('region', { name: 'Emergency' });
    await emergency.getByRole('tab', { name: 'DICOM senders' }).click();
    await emergency.getByLabel('AE title').fill('ER_CT');
    await emergency.getByLabel('Address').fill('10.1.2.3');
    await emergency.getByRole('button', { name: 'Add sender' }).click();
    await emergency
      .getByRole('table', { name: 'DICOM senders of Emergency' })
      .getByRole('cell', { name: '10.1.2.3' })
      .waitFor();
    await screenshot(b.page, 'admin-group-senders');
    await emergency.getByRole('button', { name: 'Delete ER_CT' }).click();
    await expect.poll(async () => await emergency.getByRole('cell', { name: '10.1.2.3' }).count()).toBe(0);
    await emergency.getByRole('tab', { name: 'Promote to PACS' }).click();
    expect(await emergency.getByLabel('PACS Intake').isChecked()).toBe(true);
    await table.getByRole('button', { name: 'PACS Intake', exact: true }).click();
    const intake = b.page.getByRole('region', { name: 'PACS Intake' });
    await intake.getByRole('tab', { name: 'Gatekeeper' }).click();
    await intake.getByText('Nomination form').waitFor();
    expect(await intake.getByLabel('Label').count()).toBeGreaterThan(0);
    await intake.getByRole('button', { name: 'Save' }).click();
    await b.page.getByText('Configuration saved').waitFor();
    await screenshot(b.page, 'admin-group-gatekeeper');

    // Custom exam fields of the account.
    const fields = b.page.getByRole('region', { name: 'Custom fields' });
    await fields.getByLabel('Field name').fill('Contrast agent');
    await fields.getByLabel('Field type').click();
    await b.page.getByRole('option', { name: 'Drop-down list' }).click();
    await fields.getByLabel('Choices (comma-separated)').fill('None, Iodine');
    await fields.getByRole('button', { name: 'Add field' }).click();
    const fieldRow = fields.getByRole('row', { name: /Contrast agent/ });
    await fieldRow.waitFor();
    expect(await fieldRow.textContent()).toContain('None, Iodine');
    await fieldRow.scrollIntoViewIfNeeded();
    await screenshot(b.page, 'admin-custom-fields');

    // The emergency group holds exams: it stays.
    b.page.on('dialog', (d) => void d.accept());
    await table.getByRole('button', { name: 'Delete Emergency' }).click();
    await b.page.getByText('The group holds exams: it cannot be deleted.').waitFor();
    await fields.getByRole('button', { name: 'Delete Contrast agent' }).click();
    await expect.poll(async () => await fieldRow.count()).toBe(0);
    await table.getByRole('button', { name: 'Delete Orthopedics' }).click();
    await expect.poll(async () => await table.getByRole('row', { name: /Orthopedics/ }).count()).toBe(0);
  });
});
