import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { apiGet, apiLogin, signIn } from '../support/actions';

const baseUrl = inject('baseUrl');

interface Pref {
  name: string;
  event_share: number;
  event_harvest: number;
}

describe('notification preferences', () => {
  let b: BrowserSession;
  beforeEach(async () => {
    b = await openBrowser(baseUrl);
  });
  afterEach(async () => {
    await b.close();
  });

  it('keeps a toggled preference after a reload', async () => {
    // The gatekeeper: no other browser test depends on their preferences.
    await signIn(b.page, 'gatekeeper@demo.local');
    await b.page.waitForURL('**/group/list');
    await b.page.getByRole('button', { name: 'User menu' }).click();
    await b.page.getByRole('menuitem', { name: 'Account settings' }).click();
    await b.page.waitForURL('**/account-settings');
    await b.page.getByRole('tab', { name: 'Notifications' }).click();
    await b.page.waitForURL('**/account-settings?tab=notifications');

    const harvest = b.page.getByRole('switch', { name: 'Harvested from gateway — PACS Intake' });
    const share = b.page.getByRole('switch', { name: 'Shared with me — PACS Intake' });
    expect(await harvest.isChecked()).toBe(false);
    await harvest.click();
    await b.page.getByText('Changes were saved').waitFor();
    await screenshot(b.page, 'notifications-tab');

    await b.page.reload();
    await b.page.getByRole('tab', { name: 'Notifications', selected: true }).waitFor();
    await harvest.waitFor();
    expect(await harvest.isChecked()).toBe(true);
    expect(await share.isChecked()).toBe(false);

    // What the server stores, read through the api.
    const sid = await apiLogin(baseUrl, 'gatekeeper@demo.local');
    const { events } = await apiGet<{ events: Pref[] }>(baseUrl, 'user/event/list', { sid });
    expect(events.find((p) => p.name === 'PACS Intake')).toMatchObject({ event_harvest: 1, event_share: 0 });

    // Turn it off again so the shared demo server is left as it was.
    await harvest.click();
    await b.page.getByText('Changes were saved').first().waitFor();
    await expect
      .poll(async () => {
        const again = await apiGet<{ events: Pref[] }>(baseUrl, 'user/event/list', { sid });
        return again.events.find((p) => p.name === 'PACS Intake')?.event_harvest;
      })
      .toBe(0);
  });
});
