import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { apiLogin, apiPost, signIn } from '../support/actions';
import { ownServer } from '../support/server';

// A server of its own: the demo world's Teaching Files profile is the one offered.
const own = ownServer();
const ADMIN = 'admin@demo.local';

const TEXTS = {
  en: { title: 'Destinations', add: 'Add destination', field: 'De-identify pushes with' },
  fr: { title: 'Destinations', add: 'Ajouter une destination', field: 'Dé-identifier les envois avec' },
} as const;

/** The destination form offers the account's de-identification profiles for its pushes (decision 0071). */
describe('administration: a destination that de-identifies its pushes', () => {
  let b: BrowserSession;
  beforeEach(async () => {
    b = await openBrowser(own.baseUrl);
  });
  afterEach(async () => {
    await b?.close();
  });

  for (const language of ['en', 'fr'] as const) {
    it(`chooses the Teaching Files profile on a new destination, in ${language}`, async () => {
      const texts = TEXTS[language];
      const sid = await apiLogin(own.baseUrl, ADMIN);
      await apiPost(own.baseUrl, 'user/set', { sid, language: language === 'en' ? '' : language });
      await signIn(b.page, ADMIN);
      await b.page.waitForURL('**/group/list');
      await b.page.goto('/organization/destinations.html');
      await b.page.getByRole('button', { name: texts.add }).click();
      const dialog = b.page.getByRole('dialog');
      await dialog.getByRole('combobox', { name: texts.field }).click();
      await b.page.getByRole('option', { name: 'Teaching Files' }).click();
      await expect
        .poll(() => dialog.getByRole('combobox', { name: texts.field }).textContent())
        .toContain('Teaching Files');
      await screenshot(b.page, `deidentified-destination-${language}`);
      await b.page.keyboard.press('Escape');
      expect(b.errors, b.errors.join('\n')).toEqual([]);
    });
  }
});
