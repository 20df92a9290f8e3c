import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { listSettled, openExam, openGroup, signIn } from '../support/actions';
import { ownServer } from '../support/server';

// A server of its own: on the shared one, specs that ran first nominate, process and send
// Emergency's exams, so which exams are free to nominate and what PACS Intake lists depend on them.
const own = ownServer();
const stamp = Date.now().toString(36).toUpperCase();
const REASON_FOR_VISIT = `Chest pain, outside CT (${stamp})`;
const REJECT_REASON = 'Wrong patient';
const REJECT_MESSAGE = `The MRN does not match our records (${stamp}).`;

/**
 * The gatekeeper workflow on the demo world: a clinician of Emergency nominates two exams to PACS
 * Intake; the gatekeeper rejects one (the clinician then sees why) and processes the other to PACS.
 */
/** PACS Intake's Nominations: the gatekeeper also sees PACS Archive, which sorts first. */
async function openIntakeNominations(page: Page): Promise<void> {
  await page.goto('/group/list');
  await openGroup(page, 'PACS Intake');
  await page.waitForURL(/\/Nominations$/);
}

describe('gatekeeper: nominate, reject, process', () => {
  let clinician: BrowserSession;
  let gatekeeper: BrowserSession;
  /** The nominated exams, each known by its MRN, study date and description (a patient has several exams). */
  const exams: { mrn: string; date: string; description: string }[] = [];

  beforeAll(async () => {
    clinician = await openBrowser(own.baseUrl);
    await signIn(clinician.page, 'clinician@demo.local');
    await clinician.page.waitForURL('**/group/list');
    gatekeeper = await openBrowser(own.baseUrl);
    await signIn(gatekeeper.page, 'gatekeeper@demo.local');
    await gatekeeper.page.waitForURL('**/group/list');
  });
  afterAll(async () => {
    await clinician.close();
    await gatekeeper.close();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') {
      const name = ctx.task.name.replace(/\W+/g, '-');
      await screenshot(clinician.page, `failed-gatekeeper-clinician-${name}`);
      await screenshot(gatekeeper.page, `failed-gatekeeper-gatekeeper-${name}`);
    }
  });

  const panelOf = (b: BrowserSession) => b.page.getByRole('complementary', { name: 'Exam details' });
  const openEmergency = async () => {
    const page = clinician.page;
    await page.goto('/group/list');
    await openGroup(page, 'Emergency');
    await page.waitForURL(/\/group\/[^/]+\/Inbox$/);
    await page.getByTestId('study-card').first().waitFor();
    await listSettled(clinician.page);
  };
  const openCard = async (b: BrowserSession, exam: (typeof exams)[number]) => {
    await openExam(
      b.page
        .getByTestId('study-card')
        .filter({ hasText: `MRN: ${exam.mrn}` })
        .filter({ hasText: `Study date: ${exam.date}` })
        .filter({ hasText: exam.description })
        .first(),
    );
  };

  it('a clinician nominates two exams to PACS Intake from the PACS tab', async () => {
    await openEmergency();
    const cards = clinician.page.getByTestId('study-card');
    // The two oldest exams of the page.
    const total = await cards.count();
    const [first, second] = [total - 2, total - 1];
    for (const index of [first, second]) {
      const card = cards.nth(index);
      const text = (await card.textContent()) ?? '';
      const mrn = /MRN: (\S+?)DOB/.exec(text)?.[1];
      const date = /Study date: (\d\d-\d\d-\d{4})/.exec(text)?.[1];
      const description = (await card.locator('.desc').textContent()) ?? '';
      expect(mrn && date && description).toBeTruthy();
      exams.push({ mrn: mrn!, date: date!, description });
      await openExam(card);
      const panel = panelOf(clinician);
      await panel.getByRole('tab', { name: 'PACS' }).click();
      const nominate = panel.getByRole('region', { name: 'Nominate to PACS' });
      await nominate.getByLabel(/^Reason for visit/).waitFor();
      if (index === first) {
        await nominate.getByRole('button', { name: 'Nominate' }).click();
        await nominate.getByText('Please complete all the mandatory fields.').waitFor();
        await screenshot(clinician.page, 'gatekeeper-01-nominate-form');
      }
      await nominate.getByLabel(/^Reason for visit/).fill(REASON_FOR_VISIT);
      await nominate.getByLabel(/^Nominated by/).fill('Dr Claire Clinician');
      await nominate.getByRole('button', { name: 'Nominate' }).click();
      await nominate.getByLabel('Nomination status').getByText('Nominated to PACS Intake').waitFor();
      if (index === first) await screenshot(clinician.page, 'gatekeeper-02-nominated');
    }
    expect(clinician.errors).toEqual([]);
  });

  it('the gatekeeper sees the nomination, opens Process first, and rejects it with why', async () => {
    const page = gatekeeper.page;
    await openIntakeNominations(page);
    await page.getByTestId('study-card').first().waitFor();
    await listSettled(gatekeeper.page);
    await openCard(gatekeeper, exams[1]!);
    const panel = panelOf(gatekeeper);
    // Process is the gatekeeper's default tab: the nominator's answers and the exam beside them.
    const form = panel.getByRole('form', { name: 'Nomination form' });
    await form.waitFor();
    expect(await form.getByLabel('Reason for visit').inputValue()).toBe(REASON_FOR_VISIT);
    await screenshot(page, 'gatekeeper-03-process-nomination');

    await panel.getByRole('button', { name: 'Reject' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await dialog.getByText('Field is required').first().waitFor();
    await dialog.getByLabel(/^Reason/).fill(REJECT_REASON);
    await dialog.getByLabel(/^Message/).fill(REJECT_MESSAGE);
    await screenshot(page, 'gatekeeper-04-reject-dialog');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await page.getByText('Exam has been rejected').first().waitFor();
    await page.waitForURL(/\/Rejected$/);
    await openCard(gatekeeper, exams[1]!);
    const notice = panel.getByLabel('Exam state');
    await notice.getByText(REJECT_MESSAGE, { exact: false }).waitFor();
    await screenshot(page, 'gatekeeper-05-rejected-notice');
    expect(gatekeeper.errors).toEqual([]);
  });

  it('the nominator sees the rejection and why', async () => {
    await openEmergency();
    await openCard(clinician, exams[1]!);
    const panel = panelOf(clinician);
    await panel.getByRole('tab', { name: 'PACS' }).click();
    const status = panel.getByLabel('Nomination status');
    await status.getByText('Rejected by PACS Intake').waitFor();
    await status.getByText(REJECT_REASON).waitFor();
    await status.getByText(REJECT_MESSAGE).waitFor();
    await screenshot(clinician.page, 'gatekeeper-06-nominator-sees-rejection');
  });

  it('the gatekeeper processes the other nomination and sends it to PACS', async () => {
    const page = gatekeeper.page;
    await openIntakeNominations(page);
    await page.getByTestId('study-card').first().waitFor();
    await listSettled(gatekeeper.page);
    await openCard(gatekeeper, exams[0]!);
    const panel = panelOf(gatekeeper);
    await panel.getByRole('button', { name: 'Process' }).click();
    // MWL: search the exam's MRN and take the best order, or send without one; C-Find: the first
    // patient found; no query: straight to the comparison.
    const findOrders = panel.getByLabel('Find orders of');
    const comparison = panel.getByRole('table', { name: 'Exam and order' });
    await findOrders
      .or(panel.getByRole('button', { name: 'Search' }))
      .or(comparison)
      .first()
      .waitFor();
    if (await findOrders.isVisible()) {
      await panel.getByRole('button', { name: 'Search' }).click();
      const orders = panel.getByRole('list', { name: 'Orders found' });
      const none = panel.getByLabel('No orders found');
      await orders.or(none).first().waitFor();
      await screenshot(page, 'gatekeeper-07-search-order');
      if (await orders.isVisible()) await orders.getByRole('button').first().click();
      else await none.getByRole('button', { name: 'Send to PACS without an order' }).click();
    }
    await comparison.waitFor();
    const destination = panel.getByLabel(/^Destination system/);
    if ((await destination.textContent())?.trim() === '') {
      await destination.click();
      await page.getByRole('option').first().click();
    }
    await screenshot(page, 'gatekeeper-08-comparison');
    await panel.getByRole('button', { name: 'Send to PACS' }).click();
    await page.getByText('Exam is being sent to PACS').first().waitFor();
    await page.waitForURL(/\/Queued$/);
    // The push to the demo archive completes: the exam moves to Completed, the nominator sees it.
    await page.getByRole('link', { name: 'Completed' }).click();
    await page.waitForURL(/\/Completed$/);
    await expect
      .poll(
        async () => {
          await page.reload();
          await page
            .getByTestId('study-card')
            .first()
            .or(page.getByText('No exams found!'))
            .first()
            .waitFor();
          return page
            .getByTestId('study-card')
            .filter({ hasText: `MRN: ${exams[0]!.mrn}` })
            .count();
        },
        { timeout: 60_000, interval: 2000 },
      )
      .toBeGreaterThan(0);
    await openCard(gatekeeper, exams[0]!);
    await panel.getByLabel('Exam state').getByText('This exam was sent to PACS').waitFor();
    await screenshot(page, 'gatekeeper-09-completed');
    expect(gatekeeper.errors).toEqual([]);
  });
});
