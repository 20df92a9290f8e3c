import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { apiLogin, apiPost, signIn } from '../support/actions';
import { ownServer } from '../support/server';

// A server of its own: the page lists the account's profiles as the demo world seeds them.
const own = ownServer();
const ADMIN = 'admin@demo.local';

const TEXTS = {
  en: {
    title: 'De-identification',
    add: 'Add profile',
    option: 'Clean descriptions (keep them without identifying text)',
    delete: 'Delete Teaching Files',
    refused:
      'Teaching Files was not deleted: it is still used by the group Teaching Files. Stop using it there first.',
  },
  fr: {
    title: 'Dé-identification',
    add: 'Ajouter un profil',
    option: 'Nettoyer les descriptions (les garder sans texte identifiant)',
    delete: 'Supprimer Teaching Files',
    refused:
      "Teaching Files n'a pas été supprimé, car il est encore utilisé par : le groupe Teaching Files. Cessez d'abord de l'y utiliser.",
  },
} as const;

/** Administration → De-identification: the account's profiles, in English and French. */
describe('administration: the de-identification page', () => {
  let b: BrowserSession;
  beforeEach(async () => {
    b = await openBrowser(own.baseUrl);
  });
  afterEach(async () => {
    await b?.close();
  });

  for (const language of ['en', 'fr'] as const) {
    it(`lists Teaching Files' profile and adds one, in ${language}`, async () => {
      const texts = TEXTS[language];
      const baseUrl = own.baseUrl;
      const sid = await apiLogin(baseUrl, ADMIN);
      await apiPost(baseUrl, 'user/set', { sid, language: language === 'en' ? '' : language });
      await signIn(b.page, ADMIN);
      await b.page.waitForURL('**/group/list');
      await b.page.goto('/organization/deidentification.html');
      await b.page.getByRole('heading', { name: texts.title }).waitFor();
      const table = b.page.getByRole('table');
      await table.getByText('Teaching Files', { exact: true }).waitFor();
      expect(await table.textContent()).toContain(texts.option);
      await screenshot(b.page, `admin-deidentification-${language}`);

      await b.page.getByRole('button', { name: texts.add }).click();
      const dialog = b.page.getByRole('dialog');
      await dialog.getByLabel(texts.option).check();
      await screenshot(b.page, `admin-deidentification-dialog-${language}`);
      await b.page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });

      // Teaching Files de-identifies with this profile: deleting it is refused, the page says what
      // uses it, and the profile stays.
      b.page.once('dialog', (question) => void question.accept());
      await table.getByRole('button', { name: texts.delete }).click();
      await b.page.getByRole('alert').filter({ hasText: texts.refused }).waitFor();
      expect(await table.getByText('Teaching Files', { exact: true }).count()).toBe(1);
      await screenshot(b.page, `admin-deidentification-in-use-${language}`);
      // The refused delete answered 412: the browser logs that load itself, which is no page error.
      expect(
        b.errors.filter((e) => !/status of 412/.test(e)),
        b.errors.join('\n'),
      ).toEqual([]);
    });
  }
});
