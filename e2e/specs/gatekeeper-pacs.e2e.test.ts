import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkNamespace } from '../../apps/server/test/support/netns.js';
import { createNetworkNamespace } from '../../apps/server/test/support/netns.js';
import type { Exposed } from '../../apps/server/test/support/netns-expose.js';
import { exposeToNamespace } from '../../apps/server/test/support/netns-expose.js';
import type { Forward } from '../../apps/server/test/support/netns-forward.js';
import { forwardIntoNamespace } from '../../apps/server/test/support/netns-forward.js';
import type { Orthanc } from '../../apps/server/test/support/orthanc.js';
import { startOrthanc } from '../../apps/server/test/support/orthanc.js';
import { apiGet, apiLogin, apiPost, openExam, openGroup, signIn } from '../support/actions';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { freePort, startServer, type RunningServer } from '../support/server';

/** Where Orthanc, inside its namespace, reaches our DICOM listener. */
const INBOX_INSIDE_PORT = 11112;
/** The order's procedure, which becomes the processed exam's description. */
const PROCEDURE = 'CT TUMOUR BOARD REVIEW';
const ACCESSION = `GK${Date.now().toString(36).toUpperCase()}`.slice(0, 16);

/**
 * The gatekeeper sends a nomination to a real PACS: PACS Intake (MWL flow) sends to Orthanc in a
 * private network namespace. A clinician nominates an exam, the gatekeeper finds the account's order
 * for it, compares and sends it (first to a PACS that is down, which says so beside the button);
 * the exam goes Queued then Completed, and the nominator reads that it was sent to PACS, on the card
 * as an icon too.
 */
describe('gatekeeper: process a nomination to a PACS (Orthanc)', () => {
  let server: RunningServer;
  let ns: NetworkNamespace;
  let orthanc: Orthanc;
  let toOrthanc: Forward;
  let toUs: Exposed;
  let work: string;
  let b: BrowserSession;
  let exam: { mrn: string; description: string; name: string };
  let sid = '';
  let accountId = '';

  beforeAll(async () => {
    server = await startServer();
    work = await mkdtemp(path.join(tmpdir(), 'imaging-inbox-e2e-gatekeeper-'));
    ns = await createNetworkNamespace();
    toUs = await exposeToNamespace(ns, server.dicomPort, INBOX_INSIDE_PORT);
    orthanc = await startOrthanc(ns, work, {
      modalities: { INBOX: ['INBOX', '127.0.0.1', INBOX_INSIDE_PORT] },
    });
    toOrthanc = await forwardIntoNamespace(ns, orthanc.dicomPort);

    // The account admin points PACS Intake at Orthanc, keeping its nomination form.
    sid = await apiLogin(server.baseUrl, 'admin@demo.local');
    const accounts = await apiPost<{ accounts: { uuid: string }[] }>(server.baseUrl, 'account/list', { sid });
    accountId = accounts.accounts[0]!.uuid;
    const destination = await apiPost<{ uuid: string }>(server.baseUrl, 'destination/add', {
      sid,
      account_id: accounts.accounts[0]!.uuid,
      name: 'Orthanc (Hospital PACS)',
      aetitle: 'ORTHANC',
      address: '127.0.0.1',
      port: String(toOrthanc.port),
      can_search: '1',
      can_search_mwl: '1',
      can_push: '1',
    });
    // A PACS that is down: Search is ticked, so Send to PACS asks it first and cannot.
    const dead = await apiPost<{ uuid: string }>(server.baseUrl, 'destination/add', {
      sid,
      account_id: accounts.accounts[0]!.uuid,
      name: 'Dead PACS',
      aetitle: 'DEAD',
      address: '127.0.0.1',
      port: String(await freePort()),
      can_search: '1',
      can_push: '1',
    });
    const groups = await apiPost<{ groups: { uuid: string; name: string }[] }>(server.baseUrl, 'group/list', {
      sid,
    });
    const intake = groups.groups.find((g) => g.name === 'PACS Intake')!;
    const current = await apiGet<{ gatekeeper_config: { customFields: unknown[] } }>(
      server.baseUrl,
      'group/get',
      {
        sid,
        uuid: intake.uuid,
      },
    );
    const set = await apiPost<{ status: string }>(server.baseUrl, 'group/config/set', {
      sid,
      uuid: intake.uuid,
      config: JSON.stringify({
        customFields: current.gatekeeper_config.customFields,
        pacsPromotePreference: 'MWL',
        destinations: [destination.uuid, dead.uuid],
        queryDestination: destination.uuid,
      }),
    });
    expect(set.status).toBe('OK');
    b = await openBrowser(server.baseUrl);
  }, 180_000);

  afterAll(async () => {
    await b?.close();
    await toOrthanc?.close();
    await toUs?.close();
    await ns?.stop();
    await server?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail')
      await screenshot(b.page, `failed-gatekeeper-pacs-${ctx.task.name.replace(/\W+/g, '-')}`);
  });

  const panel = () => b.page.getByRole('complementary', { name: 'Exam details' });
  const card = (description = exam.description) =>
    b.page
      .getByTestId('study-card')
      .filter({ hasText: `MRN: ${exam.mrn}` })
      .filter({ hasText: description })
      .first();
  const switchUser = async (login: string) => {
    await b.context.clearCookies();
    await b.page.goto('/');
    await b.page.evaluate(() => sessionStorage.clear());
    await signIn(b.page, login);
    await b.page.waitForURL('**/group/list');
  };

  it('a clinician nominates an exam', async () => {
    await switchUser('clinician@demo.local');
    await openGroup(b.page, 'Emergency');
    await b.page.getByTestId('study-card').first().waitFor();
    const first = b.page.getByTestId('study-card').nth(1);
    exam = {
      mrn: /MRN: (\S+?)DOB/.exec((await first.textContent()) ?? '')![1]!,
      description: (await first.locator('.desc').textContent()) ?? '',
      name: (await first.locator('h3').textContent()) ?? '',
    };
    await openExam(first);
    await panel().getByRole('tab', { name: 'PACS' }).click();
    const nominate = panel().getByRole('region', { name: 'Nominate to PACS' });
    await nominate.getByLabel(/^Reason for visit/).fill('Outside CT for the tumour board');
    await nominate.getByLabel(/^Nominated by/).fill('Dr Claire Clinician');
    await nominate.getByRole('button', { name: 'Nominate' }).click();
    await panel().getByLabel('Nomination status').getByText('Nominated to PACS Intake').waitFor();
    // The card in the nominator's group shows the nomination as a named icon.
    await card().getByRole('img', { name: 'Nominated' }).waitFor();
  });

  it('the gatekeeper finds its order, compares and sends it to Orthanc: Queued, then Completed', async () => {
    // The hospital's order for this exam (as an HL7 feed or a clerk would enter it).
    const added = await apiPost<{ status: string }>(server.baseUrl, 'order/add', {
      sid,
      account_id: accountId,
      accession_number: ACCESSION,
      patient_name: exam.name.replace(', ', '^'),
      patientid: exam.mrn,
      requested_procedure: PROCEDURE,
      modality: 'CT',
    });
    expect(added.status).toBe('OK');
    await switchUser('gatekeeper@demo.local');
    // The gatekeeper's first group is the demo's PACS Archive; nominations are in PACS Intake.
    await openGroup(b.page, 'PACS Intake');
    await card().waitFor();
    await openExam(card());
    await panel().getByRole('button', { name: 'Process' }).click();
    // MWL flow: Search Order by the exam's MRN (filled in), the account's order found and ranked.
    await panel().getByRole('button', { name: 'Search' }).click();
    const found = panel().getByRole('list', { name: 'Orders found' });
    await found.getByText(ACCESSION, { exact: false }).waitFor();
    await screenshot(b.page, 'gatekeeper-pacs-01-search-order');
    await found.getByRole('button').filter({ hasText: ACCESSION }).click();
    const table = panel().getByRole('table', { name: 'Exam and order' });
    await table.waitFor();
    // The order's accession number and procedure differ from the exam's: both are marked.
    const differing = await table.locator('tr[data-differs] th').allTextContents();
    expect(differing).toEqual(expect.arrayContaining(['Accession number≠', 'Description≠']));
    const chooseDestination = async (name: string) => {
      await panel()
        .getByLabel(/^Destination system/)
        .click();
      await b.page.getByRole('option', { name }).click();
    };
    // A PACS that does not answer: the send stops, and says so in words beside its button.
    await chooseDestination('Dead PACS');
    await panel().getByRole('button', { name: 'Send to PACS' }).click();
    const form = panel().getByRole('form', { name: 'Send to PACS' });
    const refusal = form.getByRole('alert').filter({ hasText: 'Dead PACS did not answer.' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('The exam was not sent');
    await expect.poll(() => refusal.isVisible()).toBe(true);
    // In view, not below the fold: the alert and the button just below it are both inside the window.
    const box = (await refusal.boundingBox())!;
    const button = (await form.getByRole('button', { name: 'Send to PACS' }).boundingBox())!;
    const window = b.page.viewportSize()!;
    expect(button.y + button.height).toBeLessThanOrEqual(window.height + 1);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(button.y - (box.y + box.height)).toBeLessThan(80);
    await screenshot(b.page, 'gatekeeper-pacs-02a-dead-pacs');
    await chooseDestination('Orthanc (Hospital PACS)');
    await screenshot(b.page, 'gatekeeper-pacs-02-comparison');
    await panel().getByRole('button', { name: 'Send to PACS' }).click();
    await b.page.getByText('Exam is being sent to PACS').first().waitFor();
    await b.page.waitForURL(/\/Queued$/);
    expect(b.page.url()).not.toContain('study=');

    await b.page.getByRole('link', { name: 'Completed' }).click();
    await expect
      .poll(
        async () => {
          await b.page.reload();
          await b.page.getByTestId('study-card').first().waitFor();
          return card(PROCEDURE).count();
        },
        { timeout: 60_000, interval: 2000 },
      )
      .toBe(1);
    await openExam(card(PROCEDURE));
    await panel().getByLabel('Exam state').getByText('This exam was sent to PACS').waitFor();
    await screenshot(b.page, 'gatekeeper-pacs-03-completed');
    expect(b.errors).toEqual([]);
  });

  it('the nominator reads that the exam was sent to PACS', async () => {
    await switchUser('clinician@demo.local');
    await openGroup(b.page, 'Emergency');
    await card().waitFor();
    await openExam(card());
    await panel().getByRole('tab', { name: 'PACS' }).click();
    await panel().getByLabel('Nomination status').getByText('Sent to PACS by PACS Intake').waitFor();
    await card().getByRole('img', { name: 'Sent to PACS' }).waitFor();
    await screenshot(b.page, 'gatekeeper-pacs-04-nominator-success');
  });
});
