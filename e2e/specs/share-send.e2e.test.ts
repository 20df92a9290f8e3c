import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MESSAGES } from '@imaging-inbox/contract';
import { apiGet, apiLogin, listSettled, openExam, signIn } from '../support/actions';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { waitForMail } from '../support/mail';
import { uploadFreshStudy } from '../support/studies';

const baseUrl = inject('baseUrl');
const stamp = Date.now().toString(36).toUpperCase();

/** Browsers opened by the running test; each test closes its own, even when it fails. */
let open: BrowserSession[] = [];
async function browserAs(login: string): Promise<BrowserSession> {
  const b = await openBrowser(baseUrl);
  open.push(b);
  await signIn(b.page, login);
  await b.page.waitForURL('**/group/list');
  return b;
}
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') {
    for (const [i, b] of open.entries())
      await screenshot(b.page, `failed-share-${ctx.task.name.replace(/\W+/g, '-')}-${i}`).catch(() => {});
  }
  await Promise.all(open.map((b) => b.close()));
  open = [];
});

const panel = (page: Page) => page.getByRole('complementary', { name: 'Exam details' });
const cardWith = (page: Page, mrn: string) => page.getByTestId('study-card').filter({ hasText: mrn });

/** Opens one state of one of the signed-in user's groups by its address, e.g. Emergency · Shared. */
async function openState(page: Page, login: string, group: string, state: string) {
  const sid = await apiLogin(baseUrl, login);
  const { groups } = await apiGet<{ groups: { uuid: string; name: string }[] }>(baseUrl, 'group/list', {
    sid,
  });
  const uuid = groups.find((g) => g.name === group)?.uuid;
  if (!uuid) throw new Error(`${login} is not in ${group}`);
  await page.goto(`/group/${encodeURIComponent(uuid)}/${encodeURIComponent(state)}`);
  await page.getByRole('heading', { name: `${group} · ${state}` }).waitFor();
}

/** Opens the study with this MRN from the current list (reloading until a job has delivered it). */
async function openStudy(page: Page, mrn: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await page.getByTestId('study-total').waitFor();
    await listSettled(page);
    if ((await cardWith(page, mrn).count()) > 0) break;
    if (Date.now() > deadline) throw new Error(`no card with MRN ${mrn}`);
    await page.waitForTimeout(500);
    await page.reload();
  }
  await openExam(cardWith(page, mrn));
  await panel(page).waitFor();
}

describe('share and send exams between people, groups and organisations', () => {
  it('shares a study with a group; another member of that group sees it with its message', async () => {
    const mrn = `SHR-${stamp}`;
    const message = `Please review the chest film ${stamp}`;
    await uploadFreshStudy(baseUrl, await apiLogin(baseUrl, 'clinician@demo.local'), 'Cardiology', mrn);

    const clinician = await browserAs('clinician@demo.local');
    const page = clinician.page;
    await openState(page, 'clinician@demo.local', 'Cardiology', 'Inbox');
    await openStudy(page, mrn);
    await panel(page).getByRole('tab', { name: 'Share' }).click();
    await panel(page).getByText('This exam is not currently shared').waitFor();
    await panel(page).getByLabel('Groups').click();
    await page.getByRole('option', { name: 'Emergency' }).click();
    await panel(page).getByLabel('Message').fill(`  ${message}  `);
    await panel(page).getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByText('Exam successfully shared.').waitFor();
    await panel(page).getByRole('list', { name: 'Shared with' }).getByText('Emergency (group)').waitFor();
    // The sharer finds the original under Cardiology · Shared w/ group.
    await openState(page, 'clinician@demo.local', 'Cardiology', 'Shared w/ group');
    await cardWith(page, mrn).waitFor();

    // viewer@ is a member of Emergency only, in a browser of their own.
    const viewer = await browserAs('viewer@demo.local');
    await openState(viewer.page, 'viewer@demo.local', 'Emergency', 'Shared');
    await openStudy(viewer.page, mrn);
    const note = panel(viewer.page).getByRole('alert', { name: 'Share message' });
    await note.waitFor();
    // Trimmed, as the sharer wrote it.
    expect((await note.textContent())?.endsWith(message)).toBe(true);
    await screenshot(viewer.page, 'share-01-seen-by-member');
    expect(clinician.errors).toEqual([]);
    expect(viewer.errors).toEqual([]);
  });

  /** Sends the open study from the Send exams tab and waits for the success banner. */
  async function sendFromTab(
    page: Page,
    method: 'Share code' | 'Connections' | 'E-mail',
    fill: () => Promise<void>,
  ) {
    await panel(page).getByRole('tab', { name: 'Send exams' }).click();
    await panel(page).getByRole('radio', { name: method }).check();
    await fill();
    await panel(page).getByLabel('Message').fill(`Second opinion please ${stamp}`);
    await panel(page).getByRole('button', { name: 'Send', exact: true }).click();
    await panel(page).getByRole('alert').getByText(MESSAGES.sendDone).waitFor();
  }

  it('sends a study by share code to Partner Clinic, where partner@ finds it in Referrals', async () => {
    const mrn = `SHC-${stamp}`;
    await uploadFreshStudy(baseUrl, await apiLogin(baseUrl, 'clinician@demo.local'), 'Emergency', mrn);
    const clinician = await browserAs('clinician@demo.local');
    const page = clinician.page;
    await openState(page, 'clinician@demo.local', 'Emergency', 'Inbox');
    await openStudy(page, mrn);
    await sendFromTab(page, 'Share code', async () => {
      const send = panel(page).getByRole('button', { name: 'Send', exact: true });
      await panel(page).getByRole('textbox', { name: 'Share code' }).fill('partner-referrals');
      await panel(page).getByRole('button', { name: 'Look up' }).click();
      const recipient = panel(page).getByRole('alert', { name: 'Share code recipient' });
      await recipient.getByText('Referrals — Partner Clinic').waitFor();
      expect(await send.isDisabled()).toBe(false);
    });

    const partner = await browserAs('partner@demo.local');
    await openState(partner.page, 'partner@demo.local', 'Referrals', 'Shared');
    await openStudy(partner.page, mrn);
    await panel(partner.page)
      .getByRole('alert', { name: 'Share message' })
      .getByText(`Second opinion please ${stamp}`)
      .waitFor();
    await screenshot(partner.page, 'share-02-share-code-at-partner');
    expect(clinician.errors).toEqual([]);
    expect(partner.errors).toEqual([]);
  });

  it('sends a study to the Partner Clinic connection', async () => {
    const mrn = `CON-${stamp}`;
    await uploadFreshStudy(baseUrl, await apiLogin(baseUrl, 'clinician@demo.local'), 'Emergency', mrn);
    const clinician = await browserAs('clinician@demo.local');
    const page = clinician.page;
    await openState(page, 'clinician@demo.local', 'Emergency', 'Inbox');
    await openStudy(page, mrn);
    await sendFromTab(page, 'Connections', async () => {
      await panel(page).getByRole('combobox', { name: 'Connections' }).click();
      await page.getByRole('option', { name: 'Partner Clinic — Referrals' }).click();
    });

    const partner = await browserAs('partner@demo.local');
    await openState(partner.page, 'partner@demo.local', 'Referrals', 'Shared');
    await openStudy(partner.page, mrn);
    await panel(partner.page)
      .getByRole('alert', { name: 'Share message' })
      .getByText(`Second opinion please ${stamp}`)
      .waitFor();
    expect(clinician.errors).toEqual([]);
    expect(partner.errors).toEqual([]);
  });

  it('e-mails a study: the recipient opens the link, proves the address with a code and downloads it', async () => {
    const mrn = `EML-${stamp}`;
    const email = `radiologist-${stamp.toLowerCase()}@outside.example`;
    const study = await uploadFreshStudy(
      baseUrl,
      await apiLogin(baseUrl, 'clinician@demo.local'),
      'Emergency',
      mrn,
    );
    const clinician = await browserAs('clinician@demo.local');
    const page = clinician.page;
    await openState(page, 'clinician@demo.local', 'Emergency', 'Inbox');
    await openStudy(page, mrn);
    await sendFromTab(page, 'E-mail', async () => {
      await panel(page).getByLabel('E-mail addresses').fill(email);
    });

    const linkMail = await waitForMail(baseUrl, email, /sent you an exam$/);
    const link = /\/send\/[A-Za-z0-9_-]+/.exec(linkMail.body)?.[0];
    expect(link).toBeDefined();
    expect(linkMail.body).toContain(`Second opinion please ${stamp}`);
    // No patient details in mail.
    expect(linkMail.body).not.toContain(mrn);

    // The recipient has no account: a fresh browser, no sign-in.
    const recipient = await openBrowser(baseUrl);
    open.push(recipient);
    const r = recipient.page;
    await r.goto(link!);
    await r.getByText(`Second opinion please ${stamp}`).waitFor();
    await r.getByRole('button', { name: 'E-mail me a code' }).click();
    await r.getByText(MESSAGES.sendCodeSent).waitFor();
    const codeMail = await waitForMail(baseUrl, email, /^Your code to open the exam/);
    const code = /Your code is (\d{6})\b/.exec(codeMail.body)?.[1];
    expect(code).toMatch(/^\d{6}$/);

    const codeField = r.getByLabel('Code');
    const verify = r.getByRole('button', { name: 'Verify' });
    await codeField.fill(code === '000000' ? '000001' : '000000');
    await verify.click();
    await r.getByText(MESSAGES.sendCodeWrong).waitFor();
    expect(await r.getByRole('table', { name: 'Exam summary' }).count()).toBe(0);

    await codeField.fill(code!);
    await verify.click();
    const summary = r.getByRole('table', { name: 'Exam summary' });
    await summary.waitFor();
    expect(await summary.getByRole('row', { name: /MRN/ }).textContent()).toContain(mrn);
    await screenshot(r, 'share-03-email-recipient-summary');

    const [download] = await Promise.all([
      r.waitForEvent('download'),
      r.getByRole('link', { name: 'Download exam (ZIP)' }).click(),
    ]);
    const zip = await download.path();
    const names = execFileSync('unzip', ['-Z1', zip]).toString().trim().split('\n');
    expect(names).toContain('DICOMDIR');
    const dicomFiles = names.filter((n) => n.startsWith('DICOM/'));
    expect(dicomFiles).toHaveLength(study.instances.length);
    // Each file is one of the study's instances.
    const work = await mkdtemp(path.join(tmpdir(), 'e2e-sent-zip-'));
    const uids = [];
    for (const [i, name] of dicomFiles.entries()) {
      const file = path.join(work, `${i}.dcm`);
      await writeFile(file, execFileSync('unzip', ['-p', zip, name]));
      uids.push(/\[([\d.]+)\]/.exec(execFileSync('dcmdump', ['+P', '0008,0018', file]).toString())?.[1]);
    }
    await rm(work, { recursive: true, force: true });
    expect(uids.sort()).toEqual([...study.instances].sort());
    expect(recipient.errors).toEqual([]);
    expect(clinician.errors).toEqual([]);
  });
});
