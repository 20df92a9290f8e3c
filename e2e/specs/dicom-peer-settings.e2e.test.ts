import { afterAll, afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { apiLogin, apiPost, signIn } from '../support/actions';

const baseUrl = inject('baseUrl');
const ADMIN = 'admin@demo.local';

/** Texts the two screens show in each language. */
const TEXTS = {
  en: {
    add: 'Add destination',
    tls: 'Use TLS (DICOM over TLS 1.2 or later)',
    key: 'Client private key (PEM, unencrypted)',
    senders: 'DICOM senders',
    peer: 'Query/retrieve…',
    groups: 'Groups it may query (C-FIND)',
  },
  fr: {
    add: 'Ajouter une destination',
    tls: 'Utiliser TLS (DICOM sur TLS 1.2 ou plus récent)',
    key: 'Clé privée du client (PEM, non chiffrée)',
    senders: 'Émetteurs DICOM',
    peer: 'Requête/récupération…',
    groups: 'Groupes qu’il peut interroger (C-FIND)',
  },
} as const;

/**
 * The destination dialog's TLS settings and a DICOM sender's query/retrieve settings, as an
 * account admin sees them at 1280×800 in English and French (screenshots kept for review).
 */
describe('DICOM TLS and query/retrieve settings in the admin pages', () => {
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
    it(`shows them in ${language}`, async () => {
      const texts = TEXTS[language];
      const sid = await apiLogin(baseUrl, ADMIN);
      await apiPost(baseUrl, 'user/set', { sid, language: language === 'en' ? '' : language });
      await signIn(b.page, ADMIN);
      await b.page.waitForURL('**/group/list');

      await b.page.goto('/organization/destinations.html');
      await b.page.getByRole('button', { name: texts.add }).click();
      await b.page.getByLabel(texts.tls).check();
      await b.page.getByLabel(texts.key).waitFor();
      await screenshot(b.page, `dicom-tls-destination-${language}`);
      await b.page.keyboard.press('Escape');

      await b.page.goto('/organization/groups.html');
      await b.page.getByRole('table').getByRole('button', { name: 'Emergency', exact: true }).click();
      await b.page.getByRole('tab', { name: texts.senders }).click();
      await b.page.getByRole('button', { name: texts.peer }).first().click();
      await b.page.getByText(texts.groups).waitFor();
      // DEMO_GATEWAY may query Emergency: its box is ticked.
      expect(await b.page.getByRole('dialog').getByLabel('Emergency').isChecked()).toBe(true);
      await screenshot(b.page, `dicom-node-peer-${language}`);
    });
  }
});
