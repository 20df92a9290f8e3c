import { afterAll, afterEach, beforeEach, describe, inject, it } from 'vitest';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { apiLogin, apiPost, signIn } from '../support/actions';

const baseUrl = inject('baseUrl');
const ADMIN = 'admin@demo.local';

const TEXTS = {
  en: {
    add: 'Add destination',
    commit: 'Ask for storage commitment after a push',
    timeout: 'Wait for the commitment report (seconds, empty: default)',
  },
  fr: {
    add: 'Ajouter une destination',
    commit: 'Demander l’engagement de stockage après un envoi',
    timeout: 'Attente du rapport d’engagement (secondes, vide : par défaut)',
  },
} as const;

/** The destination dialog's storage commitment setting at 1280×800 in English and French (screenshots for review). */
describe('Storage commitment in the destination dialog', () => {
  let b: BrowserSession;
  beforeEach(async () => {
    b = await openBrowser(baseUrl);
    await b.page.setViewportSize({ width: 1280, height: 800 });
  });
  afterEach(async () => {
    await b.close();
  });
  afterAll(async () => {
    const sid = await apiLogin(baseUrl, ADMIN);
    await apiPost(baseUrl, 'user/set', { sid, language: '' });
  });

  for (const language of ['en', 'fr'] as const) {
    it(`shows the checkbox and its timeout in ${language}`, async () => {
      const texts = TEXTS[language];
      const sid = await apiLogin(baseUrl, ADMIN);
      await apiPost(baseUrl, 'user/set', { sid, language: language === 'en' ? '' : language });
      await signIn(b.page, ADMIN);
      await b.page.waitForURL('**/group/list');
      await b.page.goto('/organization/destinations.html');
      await b.page.getByRole('button', { name: texts.add }).click();
      await b.page.getByLabel(texts.commit).check();
      await b.page.getByLabel(texts.timeout).fill('120');
      await screenshot(b.page, `storage-commitment-destination-${language}`);
    });
  }
});
