import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, apiPost, listSettled, signIn } from '../support/actions';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { freePort, startServer, type RunningServer } from '../support/server';

/**
 * The demo world as `npm start` seeds it (SEED_NOMINATIONS=1): the gatekeeper opens each state of
 * PACS Intake on an exam that was nominated, and sees what became of it, in English and French.
 */
describe('the demo gatekeeper’s seeded nominations', () => {
  let server: RunningServer;
  let b: BrowserSession;

  beforeAll(async () => {
    // 27 studies give PACS Intake one nomination of each outcome; the seed's destinations use the
    // configured DICOM port.
    const dicomPort = await freePort();
    server = await startServer({
      SEED_NOMINATIONS: '1',
      SEED_STUDIES: '27',
      DICOM_PORT: String(dicomPort),
      PUSH_RETRY_MS: '100',
    });
    b = await openBrowser(server.baseUrl);
  }, 180_000);
  afterAll(async () => {
    await b?.close();
    await server?.stop();
  });

  const panel = () =>
    b.page.getByRole('complementary', { name: /^(Exam details|Détails de l’examen|Détails de l'examen)$/ });
  const openState = async (state: RegExp) => {
    await b.page.getByRole('link', { name: state }).click();
    await listSettled(b.page);
    await b.page
      .getByTestId('study-card')
      .first()
      .getByRole('button', { name: /^(Open|Ouvrir) / })
      .click();
  };

  it.each([
    ['en', { nominations: /^Nominations/, failed: /^Failed/, rejected: /^Rejected/, process: 'Process' }],
    ['fr', { nominations: /^Soumissions/, failed: /^Échec/, rejected: /^Rejet/, process: 'Traiter' }],
  ] as const)('opens each state on a nominated exam, in %s', async (language, words) => {
    const sid = await apiLogin(server.baseUrl, 'gatekeeper@demo.local');
    await apiPost(server.baseUrl, 'user/set', { sid, language: language === 'en' ? '' : language });
    await b.context.clearCookies();
    await b.page.goto('/');
    await b.page.evaluate(() => sessionStorage.clear());
    await signIn(b.page, 'gatekeeper@demo.local');
    await b.page.waitForURL('**/group/list');
    await b.page.getByRole('button', { name: 'PACS Intake' }).click();

    // Waiting: the gatekeeper may process it.
    await openState(words.nominations);
    await panel().getByRole('button', { name: words.process }).waitFor();
    await screenshot(b.page, `demo-nominations-waiting-${language}`);

    // Failed at the offline PACS: named, with its reason and Retry.
    await openState(words.failed);
    const failed = panel().locator('[data-state="Failed"]');
    await failed.getByText('Radiology PACS (offline)', { exact: false }).waitFor({ timeout: 60_000 });
    await failed.getByRole('button', { name: /Retry|Réessayer/ }).waitFor();
    await screenshot(b.page, `demo-nominations-failed-${language}`);

    // Rejected, with the gatekeeper's reason.
    await openState(words.rejected);
    await panel().locator('[data-state="Rejected"]').getByText('Duplicate exam', { exact: false }).waitFor();
    await screenshot(b.page, `demo-nominations-rejected-${language}`);
    expect(b.errors).toEqual([]);
    await apiPost(server.baseUrl, 'user/set', { sid, language: '' });
  });
});
