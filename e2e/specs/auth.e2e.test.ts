import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { signIn } from '../support/actions';

const baseUrl = inject('baseUrl');

describe('sign-in, logout and not-found', () => {
  let b: BrowserSession;
  beforeEach(async () => {
    b = await openBrowser(baseUrl);
  });
  afterEach(async () => {
    await b.close();
  });

  it('refuses a wrong password with the spec message', async () => {
    await b.page.goto('/');
    await screenshot(b.page, '01-sign-in');
    await signIn(b.page, 'clinician@demo.local', 'not-the-password');
    await b.page.getByText('Your username or password is incorrect.').waitFor();
    expect(new URL(b.page.url()).pathname).toBe('/');
    expect(await b.page.evaluate(() => sessionStorage.getItem('sid'))).toBeNull();
    expect(b.errors).toEqual([]);
  });

  it('shows the required-field messages', async () => {
    await b.page.goto('/');
    await b.page.getByRole('button', { name: 'Sign in' }).click();
    await b.page.getByText('Username is required').waitFor();
    await b.page.getByText('Password is required').waitFor();
  });

  it('signs a clinician in onto the first state, and logs out', async () => {
    await signIn(b.page, 'clinician@demo.local');
    await b.page.waitForURL('**/group/list');
    const current = b.page.locator('nav [aria-current="page"]');
    await current.waitFor();
    expect(await current.textContent()).toBe('Inbox');
    expect(await b.page.evaluate(() => sessionStorage.getItem('sid'))).toBeTruthy();
    await b.page.getByTestId('study-card').first().waitFor();
    await screenshot(b.page, '02-dashboard');

    await b.page.getByRole('button', { name: 'User menu' }).click();
    await b.page.getByRole('menuitem', { name: 'Log out' }).click();
    await b.page.waitForURL((url) => url.pathname === '/');
    await b.page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await b.page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(b.errors).toEqual([]);
  });

  it('sends an unauthenticated visitor of a protected page to sign-in', async () => {
    await b.page.goto('/group/list');
    await b.page.waitForURL((url) => url.pathname === '/');
    await b.page.getByRole('button', { name: 'Sign in' }).waitFor();
  });

  it('shows the not-found message on an unknown path', async () => {
    await b.page.goto('/this/does/not/exist');
    await b.page.getByText('You reached this page by mistake. Please go back and try again.').waitFor();
    await screenshot(b.page, '09-not-found');
    expect(b.errors).toEqual([]);
  });

  it('offers password recovery with the neutral answer', async () => {
    await b.page.goto('/');
    await b.page.getByRole('button', { name: 'Forgot password?' }).click();
    await b.page.getByLabel('Email').fill('nobody@demo.local');
    await b.page.getByRole('button', { name: 'Send' }).click();
    await b.page
      .getByText('If you have a login with this email, a password reset link will be emailed to you.')
      .waitFor();
  });
});
