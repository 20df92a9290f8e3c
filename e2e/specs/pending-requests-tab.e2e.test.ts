import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, screenshot, SMALL_WINDOW, type BrowserSession } from '../support/browser';
import { apiLogin, apiPost, listSettled, signIn } from '../support/actions';
import { groupNamespaceId } from '../support/links';

const baseUrl = inject('baseUrl');
const LOGIN = 'clinician@demo.local';

/**
 * The Pending Requests tab of an exam (SPEC.md section 2): an open request of the exam's group is
 * listed there, in English and in French, at the small window size.
 */
describe('Pending Requests tab of an exam', () => {
  let b: BrowserSession;
  let sid: string;
  let linkUuid = '';
  const email = `tab-${Date.now()}@partner.example`;

  beforeAll(async () => {
    sid = await apiLogin(baseUrl, LOGIN);
    const added = await apiPost<{ status: string; uuid: string }>(baseUrl, 'link/add', {
      sid,
      namespace_id: await groupNamespaceId(baseUrl, sid, 'Emergency'),
      action: 'STUDY_UPLOAD',
      email,
      max_hits: '3',
      minutes_alive: String(3 * 24 * 60),
      message: 'Please send the prior CT',
    });
    expect(added.status).toBe('OK');
    linkUuid = added.uuid;
    b = await openBrowser(baseUrl);
    await b.page.setViewportSize(SMALL_WINDOW);
    await signIn(b.page, LOGIN);
    await b.page.waitForURL('**/group/list');
  });
  afterAll(async () => {
    await b?.close();
    await apiPost(baseUrl, 'user/set', { sid, language: '' });
    if (linkUuid) await apiPost(baseUrl, 'link/delete', { sid, uuid: linkUuid });
  });

  /** Opens the first exam of Emergency's inbox and its Pending Requests tab (`tab` as translated). */
  async function openTab(texts: { details: string; tab: string; table: string }) {
    const page = b.page;
    const emergency = page.getByRole('button', { name: 'Emergency' });
    if ((await emergency.getAttribute('aria-expanded')) !== 'true') await emergency.click();
    await page.waitForURL(/\/group\/[^/]+\/[^/]+$/);
    await page.getByTestId('study-card').first().getByRole('button').first().click();
    const panel = page.getByRole('complementary', { name: texts.details });
    await panel.getByRole('tab', { name: texts.tab }).click();
    const row = panel.getByRole('table', { name: texts.table }).getByRole('row', { name: new RegExp(email) });
    await row.waitFor();
    await listSettled(page);
    return row;
  }

  it("lists the group's open request in the exam panel, in English", async () => {
    const row = await openTab({
      details: 'Exam details',
      tab: 'Pending Requests',
      table: 'Pending Requests',
    });
    expect(await row.textContent()).toContain('Expires in 3 days');
    await screenshot(b.page, 'pending-requests-tab-1280x800-en');
  });

  it('and in French', async () => {
    await b.page.getByRole('button', { name: 'User menu' }).click();
    await b.page.getByRole('menuitem', { name: 'Account settings' }).click();
    await b.page.getByLabel('Language').selectOption('fr');
    await b.page.getByLabel('Prénom').waitFor();
    await b.page.goto('/group/list');
    await openTab({
      details: "Détails de l'examen",
      tab: 'Demandes en attente',
      table: 'Demandes en attente',
    });
    await screenshot(b.page, 'pending-requests-tab-1280x800-fr');
  });
});
