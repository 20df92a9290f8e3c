import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStudySpecs, writeStudyFiles } from '../../apps/server/dist/dicom/index.js';
import { openExam, openGroup, signIn } from '../support/actions';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';

/** dcmtk's storescu, as the demo gateway (a registered sender of the account), into our listener. */
function storescu(port: number, dir: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'storescu',
      ['-aet', 'DEMO_GATEWAY', '-aec', 'INBOX', '127.0.0.1', String(port), '+sd', dir],
      { env: { ...process.env, TCP_NODELAY: '1' } },
    );
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

/** A local HTTP receiver of webhook deliveries on 127.0.0.1. */
async function startSink() {
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Routing Rules page end to end: an admin writes "every CT from the demo gateway is shared to
 * Cardiology" and a webhook for exams received from a sender; a real C-STORE from dcmtk arrives;
 * the exam shows up in Cardiology, its history shows the rule's run, and the webhook's delivery
 * log shows the delivery the local sink received.
 */
describe('administration: routing rules and webhooks at work', () => {
  let server: RunningServer;
  let sink: Awaited<ReturnType<typeof startSink>>;
  let work: string;
  let b: BrowserSession;
  const ct = {
    ...generateStudySpecs(40, 4242, { now: new Date('2026-05-01T00:00:00Z') }).find((s) =>
      s.series.every((series) => series.modality === 'CT'),
    )!,
    patientName: 'ROUTEDOE^CARLA',
  };

  beforeAll(async () => {
    sink = await startSink();
    // Its own server: the one all specs share does not say its DICOM port.
    server = await startServer({
      SEED_STUDIES: '0',
      ROUTING_QUIET_MS: '600',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    });
    work = await mkdtemp(path.join(tmpdir(), 'imaging-inbox-e2e-routing-'));
    for (const file of writeStudyFiles(ct)) {
      await writeFile(path.join(work, `${file.sopInstanceUid}.dcm`), file.bytes);
    }
    b = await openBrowser(server.baseUrl);
    await signIn(b.page, 'admin@demo.local');
    await b.page.waitForURL('**/group/list');
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await server?.stop();
    await sink?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('an admin writes a webhook and a rule sharing every CT from the gateway to Cardiology', async () => {
    const page = b.page;
    await page.goto('/organization/routing-rules.html');
    await page.getByText('No routing rules yet.').waitFor();

    // The webhook first, so the rule could call it too.
    const addWebhook = page.getByRole('group', { name: 'Add webhook' });
    await addWebhook.getByLabel('Name').fill('Hospital integration engine');
    await addWebhook.getByLabel('URL').fill(sink.url);
    await addWebhook.getByLabel('Exam uploaded').uncheck();
    await addWebhook.getByLabel('Exam received from a sender').check();
    await addWebhook.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByRole('table', { name: 'Webhooks' }).getByText('Hospital integration engine').waitFor();

    await page.getByRole('button', { name: 'Add routing rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add routing rule' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Gateway CT to Cardiology');
    await dialog.getByRole('combobox', { name: 'For' }).click();
    await page.getByRole('option', { name: 'A DICOM sender' }).click();
    await dialog.getByRole('combobox', { name: 'Sender' }).click();
    await page.getByRole('option', { name: /DEMO_GATEWAY/ }).click();
    await dialog.getByLabel('On upload').uncheck();
    await dialog.getByRole('button', { name: 'Add condition' }).click();
    await dialog.getByRole('combobox', { name: 'Field' }).click();
    await page.getByRole('option', { name: 'Modality' }).click();
    await dialog.getByRole('textbox', { name: 'Value' }).fill('CT');
    await dialog.getByRole('combobox', { name: 'Target' }).click();
    await page.getByRole('option', { name: 'Cardiology' }).click();
    await screenshot(page, 'admin-routing-01-rule');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });

    const row = page.getByRole('table', { name: 'Routing Rules' }).getByRole('row', {
      name: /Gateway CT to Cardiology/,
    });
    await row.waitFor();
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('DEMO_GATEWAY');
    expect(text).toContain('On harvest from a sender');
    expect(text).toMatch(/Modality equals "CT"/);
    expect(text).toContain('Share to a group: Cardiology');
    await screenshot(page, 'admin-routing-02-list');
  });

  it('a C-STORE of a CT from the gateway lands in Cardiology, with the run in its history', async () => {
    const sent = await storescu(server.dicomPort, work);
    expect(sent.code, sent.output).toBe(0);

    const page = b.page;
    await page.goto('/group/list');
    await openGroup(page, 'Cardiology');
    await page.waitForURL(/\/group\/[^/]+\/Inbox$/);
    const card = page.getByTestId('study-card').filter({ hasText: 'ROUTEDOE' });
    // The rule runs once the sender has been quiet; the inbox refreshes on its own or by reload.
    for (let i = 0; i < 40 && !(await card.count()); i++) {
      await page.waitForTimeout(500);
      if (i % 6 === 5) await page.reload();
    }
    await card.first().waitFor();

    // The exam the gateway sent (Emergency) tells which rule shared it.
    await page.goto('/group/list');
    await openGroup(page, 'Emergency');
    await page.waitForURL(/\/group\/[^/]+\/Inbox$/);
    const original = page.getByTestId('study-card').filter({ hasText: 'ROUTEDOE' });
    await openExam(original.first());
    const panel = page.getByRole('complementary', { name: 'Exam details' });
    await panel.getByRole('button', { name: 'Exam history' }).click();
    await panel.getByText('routed', { exact: true }).waitFor();
    const run = panel.getByText('Gateway CT to Cardiology: shared to a group', { exact: false });
    await run.waitFor();
    await run.scrollIntoViewIfNeeded();
    await screenshot(page, 'admin-routing-03-history');
  });

  it("shows the webhook's delivery, signed, in its log", async () => {
    const page = b.page;
    for (let i = 0; i < 100 && !sink.received.length; i++) await page.waitForTimeout(200);
    expect(sink.received.length).toBeGreaterThan(0);
    expect(JSON.stringify(sink.received[0]!.headers)).toMatch(/x-imaging-inbox-signature/i);
    expect(JSON.parse(sink.received[0]!.body)).toMatchObject({ event: 'study_harvested' });

    await page.goto('/organization/routing-rules.html');
    await page.getByRole('button', { name: 'Deliveries' }).click();
    await page.getByText('Latest deliveries of Hospital integration engine').waitFor();
    const deliveries = page.getByRole('table', { name: 'Deliveries' });
    await deliveries.getByText('Delivered').waitFor();
    expect(await deliveries.textContent()).toContain('Exam received from a sender');
    await screenshot(page, 'admin-routing-04-deliveries');
  });
});
