import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, SMALL_WINDOW, type BrowserSession } from '../support/browser';
import { apiLogin, apiPost, openExam, signIn } from '../support/actions';
import { ownServer } from '../support/server';

// A server of its own: the admin's language is changed to French below.
const own = ownServer();
const ADMIN = 'admin@demo.local';

/** The Downloads tab offers the account's de-identification profiles to a holder of study_download_anonymized. */
describe('de-identified download', () => {
  let b: BrowserSession;
  beforeAll(async () => {
    b = await openBrowser(own.baseUrl);
    await b.page.setViewportSize(SMALL_WINDOW);
  });
  afterAll(async () => {
    await apiPost(own.baseUrl, 'user/set', { sid: await apiLogin(own.baseUrl, ADMIN), language: '' });
    await b?.close();
  });

  const panel = () => b.page.getByRole('complementary').last();

  it('shows De-identify with the profiles in the Downloads tab, in English and French', async () => {
    await signIn(b.page, ADMIN);
    await b.page.waitForURL('**/group/list');
    await b.page.getByRole('button', { name: 'Emergency', exact: true }).first().click();
    await b.page.getByTestId('study-card').first().waitFor();
    await openExam(b.page.getByTestId('study-card').first());
    await panel().getByRole('tab', { name: 'Downloads' }).click();
    await panel().getByLabel('All series').waitFor();
    const box = panel().getByRole('checkbox', { name: 'De-identify' });
    await expect.poll(() => box.isEnabled()).toBe(true);
    await box.check();
    const profile = panel().getByRole('combobox', { name: 'De-identification profile' });
    await profile.waitFor();
    expect(await profile.textContent()).toContain('Teaching Files');
    await screenshot(b.page, 'deidentified-download-en');

    await apiPost(own.baseUrl, 'user/set', { sid: await apiLogin(own.baseUrl, ADMIN), language: 'fr' });
    await b.page.reload();
    // The exam stays open across the reload (its URL names it).
    await panel().getByRole('tab', { name: 'Téléchargements' }).click();
    const boite = panel().getByRole('checkbox', { name: 'Dé-identifier' });
    await expect.poll(() => boite.isEnabled()).toBe(true);
    await boite.check();
    await panel().getByRole('combobox', { name: 'Profil de dé-identification' }).waitFor();
    await screenshot(b.page, 'deidentified-download-fr');

    // This exam is an ultrasound, whose every image may show burned-in text: the server refuses its
    // de-identified copy, and the tab says why in words.
    await panel().getByRole('button', { name: 'Télécharger', exact: true }).click();
    await b.page
      .getByText(
        'Non téléchargé : chaque image de cet examen peut montrer du texte patient incrusté, que la dé-identification ne peut pas retirer.',
      )
      .waitFor();
    await screenshot(b.page, 'deidentified-download-refused-fr');
  });
});
