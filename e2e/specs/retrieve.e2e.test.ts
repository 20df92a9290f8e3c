import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateStudySpecs, writeStudyFiles } from '../../apps/server/dist/dicom/index.js';
import type { NetworkNamespace } from '../../apps/server/test/support/netns.js';
import { createNetworkNamespace } from '../../apps/server/test/support/netns.js';
import type { Exposed } from '../../apps/server/test/support/netns-expose.js';
import { exposeToNamespace } from '../../apps/server/test/support/netns-expose.js';
import type { Forward } from '../../apps/server/test/support/netns-forward.js';
import { forwardIntoNamespace } from '../../apps/server/test/support/netns-forward.js';
import type { Orthanc } from '../../apps/server/test/support/orthanc.js';
import { startOrthanc, storeWithStorescu } from '../../apps/server/test/support/orthanc.js';
import { apiLogin, apiPost, listSettled, openExam, openGroup, signIn } from '../support/actions';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';

/** Where Orthanc, inside its namespace, reaches our DICOM listener. */
const INBOX_INSIDE_PORT = 11112;

/**
 * Retrieve Study against a real PACS: Orthanc (in a private network namespace, our listener exposed
 * to it) holds a study; on the Retrieve page the user searches it, retrieves it into Cardiology and
 * opens it in the inbox, then pushes it back from its PACS tab. The Retrieve page, the Destinations page and the PACS tab are kept as
 * screenshots.
 */
describe('Retrieve Study from Orthanc', () => {
  let server: RunningServer;
  let ns: NetworkNamespace;
  let orthanc: Orthanc;
  let toOrthanc: Forward;
  let toUs: Exposed;
  let work: string;
  let b: BrowserSession;
  let cardiology: { uuid: string; name: string };
  const [study] = generateStudySpecs(1, 7070, { now: new Date('2026-05-01T00:00:00Z') });

  beforeAll(async () => {
    // Its own server: the one all specs share does not say its DICOM port.
    server = await startServer({ SEED_STUDIES: '0' });
    work = await mkdtemp(path.join(tmpdir(), 'imaging-inbox-e2e-retrieve-'));
    ns = await createNetworkNamespace();
    toUs = await exposeToNamespace(ns, server.dicomPort, INBOX_INSIDE_PORT);
    orthanc = await startOrthanc(ns, work, {
      modalities: { INBOX: ['INBOX', '127.0.0.1', INBOX_INSIDE_PORT] },
    });
    toOrthanc = await forwardIntoNamespace(ns, orthanc.dicomPort);
    const files = path.join(work, 'study');
    await mkdir(files, { recursive: true });
    for (const file of writeStudyFiles(study!)) {
      await writeFile(path.join(files, `${file.sopInstanceUid}.dcm`), file.bytes);
    }
    await storeWithStorescu(ns, orthanc, 'INBOX', files);

    const sid = await apiLogin(server.baseUrl, 'admin@demo.local');
    const accounts = await apiPost<{ accounts: { uuid: string }[] }>(server.baseUrl, 'account/list', { sid });
    await apiPost(server.baseUrl, 'destination/add', {
      sid,
      account_id: accounts.accounts[0]!.uuid,
      name: 'Orthanc (Radiology PACS, main building)',
      aetitle: 'ORTHANC',
      address: '127.0.0.1',
      port: String(toOrthanc.port),
      can_search: '1',
      can_push: '1',
    });
    const groups = await apiPost<{ groups: { uuid: string; name: string }[] }>(server.baseUrl, 'group/list', {
      sid,
    });
    cardiology = groups.groups.find((g) => g.name === 'Cardiology')!;
    b = await openBrowser(server.baseUrl);
    await b.page.setViewportSize({ width: 1440, height: 900 });
    await signIn(b.page, 'admin@demo.local');
    await b.page.waitForURL('**/group/list');
  }, 120_000);

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
      await screenshot(b.page, `failed-retrieve-${ctx.task.name.replace(/\W+/g, '-')}`);
  });

  it('searches Orthanc, retrieves the study into the group, opens it in the inbox and pushes it back', async () => {
    const page = b.page;
    await page.goto(`/study/retrieve/${cardiology.uuid}`);
    const form = page.getByRole('form', { name: 'Search a destination' });
    await form.getByLabel('Destination').click();
    await page.getByRole('option', { name: /^Orthanc/ }).click();
    await form.getByLabel('MRN').fill(study!.patientId);
    await form.getByRole('button', { name: 'Search' }).click();
    const results = page.getByRole('table', { name: 'Search results' });
    await results.waitFor();
    // The patient's name and birth date read as people write them (the user's date format, the
    // default MM-DD-YYYY here), not as DICOM stores them.
    const patientRow = results.getByRole('row').nth(1);
    const shown = (await patientRow.textContent()) ?? '';
    expect(shown).not.toContain('^');
    const [, year, month, day] = /^(\d{4})(\d{2})(\d{2})$/.exec(study!.patientBirthDate)!;
    expect(shown).toContain(`born ${month}-${day}-${year}`);
    await results.getByRole('checkbox').first().check();
    const selected = page.getByRole('region', { name: 'Selected exams' });
    // It says where the exams go: the group whose page this is.
    await selected.getByText('Exams are retrieved into the group Cardiology.').waitFor();
    await selected.getByRole('button', { name: 'Retrieve' }).click();
    await selected
      .getByRole('alert')
      .filter({ hasText: /success/i })
      .waitFor({ timeout: 60_000 });
    await listSettled(b.page);
    await screenshot(page, 'retrieve-page');
    expect(b.errors).toEqual([]);

    // In the inbox of Cardiology, with all its images.
    await page.goto('/group/list');
    await openGroup(page, 'Cardiology');
    await page.waitForURL(/\/group\/[^/]+\/Inbox$/);
    const card = page.getByTestId('study-card').filter({ hasText: study!.patientId });
    await card.waitFor();
    await openExam(card);
    const panel = page.getByRole('complementary', { name: 'Exam details' });
    await panel.getByRole('tab', { name: 'Summary', selected: true }).waitFor();
    const images = study!.series.reduce((n, s) => n + s.instanceCount, 0);
    await expect.poll(async () => (await panel.textContent()) ?? '').toContain(String(images));

    // From its PACS tab, pushed back to the PACS: the history says all its images were sent.
    await panel.getByRole('tab', { name: 'PACS' }).click();
    const push = panel.getByRole('region', { name: 'Push to a destination' });
    await push.getByLabel('Destination').click();
    await page.getByRole('option', { name: /^Orthanc/ }).click();
    await push.getByRole('button', { name: 'Push to PACS' }).click();
    await push
      .getByRole('list', { name: 'Push history' })
      .getByText(`${images} of ${images} images sent, 0 failed`)
      .waitFor({ timeout: 60_000 });
    await push.scrollIntoViewIfNeeded();
    await listSettled(b.page);
    await screenshot(page, 'retrieve-pacs-tab');
    expect(b.errors).toEqual([]);
  });

  it('shows the destination on the Destinations page', async () => {
    await b.page.goto('/organization/destinations.html');
    await b.page.getByText('ORTHANC').first().waitFor();
    await listSettled(b.page);
    await screenshot(b.page, 'retrieve-destinations-page');
    expect(b.errors).toEqual([]);
  });
});
