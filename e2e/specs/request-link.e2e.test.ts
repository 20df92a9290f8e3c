import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { generateStudySpecs, writeStudyFiles } from '../../apps/server/dist/dicom/index.js';
import { apiGet, apiLogin, signIn } from '../support/actions';
import { openBrowser, type BrowserSession } from '../support/browser';
import { mailedLinkPath } from '../support/mail';

const baseUrl = inject('baseUrl');

/** The request link mailed to `to`, read from the embedded server's outbox page (no SMTP in tests). */
const mailedLink = (to: string) => mailedLinkPath(baseUrl, to);

describe('request study: the requester mails a link, an outside party uploads through it', () => {
  let clinician: BrowserSession;
  let outsider: BrowserSession | undefined;
  let dir: string;
  const email = `sender-${Date.now()}@hospital.example`;
  const [spec] = generateStudySpecs(1, 31337, { now: new Date('2026-06-01T00:00:00Z') });
  const files = writeStudyFiles(spec!).slice(0, 2);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'imaging-inbox-link-'));
    await Promise.all(files.map((f, i) => writeFile(path.join(dir, `IM${i + 1}.dcm`), f.bytes)));
    clinician = await openBrowser(baseUrl);
    await signIn(clinician.page, 'clinician@demo.local');
    await clinician.page.waitForURL('**/group/list');
  });
  afterAll(async () => {
    await clinician?.close();
    await outsider?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends the request and lands on Pending Requests with the new row', async () => {
    const page = clinician.page;
    await page.getByRole('button', { name: 'Emergency' }).click();
    await page.waitForURL(/\/Inbox$/);
    const emergency = page.locator('nav .MuiAccordion-root', { hasText: 'Emergency' });
    await emergency.getByRole('button', { name: 'Request Study' }).click();
    await page.waitForURL(/\/study\/request\//);
    const form = page.getByRole('form', { name: 'Request Study' });
    const submit = form.getByRole('button', { name: 'Request Study' });
    await submit.waitFor();
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel(/^Email/).fill(email);
    await page.getByLabel(/^Maximum hits/).fill('2');
    await page.getByText('24 hours (1440 minutes)').click();
    await page.getByLabel('Link password').fill('outside-pass-77');
    await page.getByLabel('Study description').fill('Prior CT for the trauma patient');
    await submit.click();
    await page.waitForURL(/\/Pending%20Requests$/);
    await page.getByText('Study request successfully sent').waitFor();
    const row = page.getByRole('row', { name: new RegExp(email) });
    await row.waitFor();
    expect(await row.textContent()).toContain('Prior CT for the trauma patient');
  });

  it('lets an outside party open the mailed link, unlock it and upload two files', async () => {
    outsider = await openBrowser(baseUrl);
    const page = outsider.page;
    await page.goto(await mailedLink(email));
    await page.getByText('Prior CT for the trauma patient').waitFor();
    await page.getByLabel(/^Password/).fill('outside-pass-77');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page
      .getByLabel('DICOM files', { exact: true })
      .setInputFiles(files.map((_, i) => path.join(dir, `IM${i + 1}.dcm`)));
    await page.getByText(/1 exams? found in 2 files/).waitFor();
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Files uploaded successfully').waitFor();
    expect(outsider.errors).toEqual([]);
  });

  it('shows the uploaded study in the group', async () => {
    const sid = await apiLogin(baseUrl, 'clinician@demo.local');
    const found = await apiGet<{ studies: { image_count: number; source_ae_title: string }[] }>(
      baseUrl,
      'study/list',
      { sid, 'filter.study_uid.equals': spec!.studyInstanceUid },
    );
    expect(found.studies).toHaveLength(1);
    expect(found.studies[0]).toMatchObject({ image_count: 2, source_ae_title: 'LINK' });
    const page = clinician.page;
    await page.getByRole('list', { name: 'Emergency states' }).getByRole('link', { name: 'Inbox' }).click();
    await page.waitForURL(/\/Inbox$/);
    // The list fetched before the upload may still be fresh in the query cache.
    await page.reload();
    await page.getByText(spec!.patientId).first().waitFor();
  });
});

describe('request links that can no longer be used are refused in a fresh browser', () => {
  const dataDir = inject('dataDir');

  /** Adds a link through the api and answers its token, read from the mailed url. */
  async function addLink(maxHits: number): Promise<{ uuid: string; path: string }> {
    const sid = await apiLogin(baseUrl, 'clinician@demo.local');
    const { groups } = await apiGet<{ groups: { name: string; namespace_id: string }[] }>(
      baseUrl,
      'group/list',
      {
        sid,
      },
    );
    const email = `dead-${Math.random().toString(36).slice(2, 8)}@hospital.example`;
    const res = await fetch(`${baseUrl}/api/v3/link/add`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        sid,
        namespace_id: groups.find((g) => g.name === 'Emergency')!.namespace_id,
        action: 'STUDY_UPLOAD',
        email,
        max_hits: String(maxHits),
        minutes_alive: '60',
      }).toString(),
    });
    const body = (await res.json()) as { uuid: string };
    return { uuid: body.uuid, path: await mailedLink(email) };
  }

  async function expectRefused(linkPath: string) {
    const fresh = await openBrowser(baseUrl);
    try {
      await fresh.page.goto(linkPath);
      await fresh.page
        .getByText('This upload link is not valid: it may have expired, been used up or been revoked.')
        .waitFor();
      expect(await fresh.page.getByLabel('DICOM folder').count()).toBe(0);
      expect(await fresh.page.getByLabel(/^Password/).count()).toBe(0);
    } finally {
      await fresh.close();
    }
  }

  it('refuses a link whose time is up', async () => {
    const link = await addLink(5);
    // The clock moves past the link's end: the e2e server runs on SQLite in its DATA_DIR.
    const db = new Database(path.join(dataDir, 'imaging-inbox.sqlite'));
    try {
      db.prepare('update links set expires = ? where uuid = ?').run(Date.now() - 1000, link.uuid);
    } finally {
      db.close();
    }
    await expectRefused(link.path);
  });

  it('refuses a link whose hits are used up', async () => {
    const link = await addLink(1);
    const token = link.path.split('/').pop()!;
    const unlock = await fetch(`${baseUrl}/api/v3/link/public/unlock`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token }).toString(),
    });
    expect(unlock.status).toBe(200);
    await expectRefused(link.path);
  });
});
