import { afterAll, beforeEach, afterEach, describe, expect, inject, it } from 'vitest';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { apiLogin, apiPost, openGroup, signIn } from '../support/actions';
import { DEMO_PASSWORD } from '../support/server';

const baseUrl = inject('baseUrl');
// The gatekeeper: only the notifications test signs in as them, and this test puts their
// password and profile back afterwards.
const LOGIN = 'gatekeeper@demo.local';
const NEW_PASSWORD = 'Profile-pass-42';

describe('account settings: profile and password', () => {
  let b: BrowserSession;
  let password = DEMO_PASSWORD;
  beforeEach(async () => {
    b = await openBrowser(baseUrl);
  });
  afterEach(async () => {
    await b.close();
  });
  afterAll(async () => {
    const sid = await apiLogin(baseUrl, LOGIN, password);
    await apiPost(baseUrl, 'user/set', { sid, date_format: 'MM-DD-YYYY', time_zone: '', mobile_phone: '' });
    if (password === DEMO_PASSWORD) return;
    // The last three passwords may not be reused: step through two others to get back to the demo one.
    for (const next of ['Restore-pass-01', 'Restore-pass-02', DEMO_PASSWORD]) {
      await apiPost(baseUrl, 'user/password/change', {
        sid,
        old_password: password,
        password: next,
        password_confirm: next,
      });
      password = next;
    }
    await apiLogin(baseUrl, LOGIN, DEMO_PASSWORD);
  });

  it('saves a date format that the inbox then uses, and refuses a bad phone number', async () => {
    await signIn(b.page, LOGIN);
    await b.page.waitForURL('**/group/list');
    // The gatekeeper's first group is the (empty) PACS Archive; its exams are in PACS Intake.
    await openGroup(b.page, 'PACS Intake');
    const studyDate = b.page
      .getByTestId('study-card')
      .first()
      .getByText(/^Study date:/);
    expect(await studyDate.textContent()).toMatch(/^Study date: \d{2}-\d{2}-\d{4}$/);

    await b.page.getByRole('button', { name: 'User menu' }).click();
    await b.page.getByRole('menuitem', { name: 'Account settings' }).click();
    await b.page.waitForURL('**/account-settings');
    const save = b.page.getByRole('button', { name: 'Save' });
    await b.page.getByLabel('First name').waitFor();
    expect(await save.isDisabled()).toBe(true);

    await b.page.getByLabel('Mobile phone').fill('0171 555');
    await b.page.getByText('Please enter a valid phone number').waitFor();
    expect(await save.isDisabled()).toBe(true);
    await b.page.getByLabel('Mobile phone').fill('+4930901820');
    await b.page.getByLabel('Date format').selectOption('YYYY-MM-DD');
    await b.page.getByLabel('Time zone').selectOption('Europe/Berlin');
    await save.click();
    await b.page.getByText('Profile changes were successfully saved.').waitFor();
    await screenshot(b.page, 'profile-tab');

    await b.page.reload();
    await b.page.getByLabel('Mobile phone').waitFor();
    expect(await b.page.getByLabel('Mobile phone').inputValue()).toBe('+4930901820');
    expect(await b.page.getByLabel('Date format').inputValue()).toBe('YYYY-MM-DD');

    await b.page.goto('/group/list');
    await openGroup(b.page, 'PACS Intake');
    await expect
      .poll(
        async () =>
          await b.page
            .getByTestId('study-card')
            .first()
            .getByText(/^Study date:/)
            .textContent(),
      )
      .toMatch(/^Study date: \d{4}-\d{2}-\d{2}$/);
  });

  it('changes the password from the Password tab; the old one no longer signs in', async () => {
    await signIn(b.page, LOGIN);
    await b.page.waitForURL('**/group/list');
    await b.page.goto('/account-settings?tab=password');
    await b.page.getByLabel('Current password').fill('Not-the-pass-1');
    await b.page.getByLabel(/^New password/).fill(NEW_PASSWORD);
    await b.page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await b.page.getByRole('button', { name: 'Change password' }).click();
    await b.page.getByText('Current password is wrong.').waitFor();

    await b.page.getByLabel('Current password').fill(DEMO_PASSWORD);
    await b.page.getByRole('button', { name: 'Change password' }).click();
    await b.page.getByText('Password was successfully changed.').waitFor();
    password = NEW_PASSWORD;

    const old = await apiPost<{ error_type?: string }>(baseUrl, 'session/login', {
      login: LOGIN,
      password: DEMO_PASSWORD,
    });
    expect(old.error_type).toBe('BAD_PASSWORD');
    expect(await apiLogin(baseUrl, LOGIN, NEW_PASSWORD)).toMatch(/.{20,}/);
  });
});
