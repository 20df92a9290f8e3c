import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { listSettled, openExam, openGroup, signIn } from '../support/actions';
import { ownServer } from '../support/server';

// A server of its own: it works on Emergency's newest exam, which on the shared server is whatever
// a spec that ran first uploaded there (a resumable upload's one large instance, for one).
const own = ownServer();
const stamp = Date.now().toString(36);
const TAG = `e2e-${stamp}`;
const NEW_MRN = `MRN-E2E-${stamp}`.toUpperCase();

/** The MRN shown on a card. */
async function cardMrn(card: Locator): Promise<string> {
  const text = (await card.locator('.meta').textContent()) ?? '';
  return /MRN:\s*(\S+?)(?:DOB|$)/.exec(text)?.[1] ?? '';
}

describe('exam actions: star, tags, download, edit MRN, share, delete and restore', () => {
  let b: BrowserSession;
  let emergencyInbox = '';
  let mrn = '';
  let oldMrn = '';
  beforeAll(async () => {
    b = await openBrowser(own.baseUrl);
    await signIn(b.page, 'clinician@demo.local');
    await b.page.waitForURL('**/group/list');
    await openGroup(b.page, 'Emergency');
    await b.page.waitForURL(/\/group\/[^/]+\/Inbox$/);
    emergencyInbox = b.page.url();
    await b.page.getByTestId('study-card').first().waitFor();
    await listSettled(b.page);
  });
  afterAll(async () => {
    await b.close();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail')
      await screenshot(b.page, `failed-exam-${ctx.task.name.replace(/\W+/g, '-')}`);
  });

  const panel = () => b.page.getByRole('complementary', { name: 'Exam details' });
  const cardWith = (text: string) => b.page.getByTestId('study-card').filter({ hasText: text });

  it('stars a study and adds a tag, both shown on its card', async () => {
    const card = b.page.getByTestId('study-card').first();
    mrn = await cardMrn(card);
    expect(mrn).not.toBe('');
    await openExam(card);
    await panel().getByRole('tab', { name: 'Summary', selected: true }).waitFor();
    const star = panel().getByRole('button', { name: 'Star exam' });
    const starredBefore = (await star.getAttribute('aria-pressed')) === 'true';
    if (!starredBefore) {
      await star.click();
      await cardWith(mrn).getByLabel('Starred').waitFor();
      expect(await star.getAttribute('aria-pressed')).toBe('true');
    }
    await panel().getByLabel('Add tag').fill(`  ${TAG}  `);
    await panel().getByLabel('Add tag').press('Enter');
    await cardWith(mrn).getByTestId('study-tag').filter({ hasText: TAG }).waitFor();
    // Confirmed by the server: the refetched list still has it.
    await listSettled(b.page);
    expect(await cardWith(mrn).getByTestId('study-tag').allTextContents()).toContain(TAG);
    await screenshot(b.page, 'exam-01-star-tag');
  });

  it('downloads the study as a ZIP with progress', async () => {
    await panel().getByRole('tab', { name: 'Downloads' }).click();
    await panel().getByLabel('All series').waitFor();
    const [download] = await Promise.all([
      b.page.waitForEvent('download'),
      panel().getByRole('button', { name: 'Download', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    const bytes = await readFile(await download.path());
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    await b.page.getByText('Download complete').waitFor();
  });

  it('edits the MRN and sees it on the card and in the history', async () => {
    await panel().getByRole('tab', { name: 'Edit MRN' }).click();
    const input = panel().getByLabel('New MRN');
    const button = panel().getByRole('button', { name: 'Update MRN' });
    await input.fill('   ');
    expect(await button.isDisabled()).toBe(true);
    oldMrn = mrn;
    await input.fill(NEW_MRN);
    await button.click();
    await b.page.getByText('MRN updated successfully').waitFor();
    await cardWith(NEW_MRN).waitFor();
    mrn = NEW_MRN;
    await panel().getByRole('tab', { name: 'Summary' }).click();
    await panel().getByRole('button', { name: 'Exam history' }).click();
    await panel().getByText('edit', { exact: true }).first().waitFor();
    // The history says what changed: old → new.
    await panel().getByText(`MRN: ${oldMrn} → ${NEW_MRN}`, { exact: false }).first().waitFor();
  });

  it('downloads a ZIP and an ISO whose DICOM files carry the new MRN', async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'e2e-mrn-'));
    await panel().getByRole('tab', { name: 'Downloads' }).click();
    await panel().getByLabel('All series').waitFor();
    const [zip] = await Promise.all([
      b.page.waitForEvent('download'),
      panel().getByRole('button', { name: 'Download', exact: true }).click(),
    ]);
    const first = path.join(work, 'from-zip.dcm');
    await writeFile(first, execFileSync('unzip', ['-p', await zip.path(), 'DICOM/1/1']));
    expect(execFileSync('dcmdump', ['+P', '0010,0020', first]).toString()).toContain(`[${NEW_MRN}]`);
    await b.page.getByText('Download complete').first().waitFor();

    const [iso] = await Promise.all([
      b.page.waitForEvent('download'),
      panel().getByRole('button', { name: 'Download ISO' }).click(),
    ]);
    expect(iso.suggestedFilename()).toMatch(/\.iso$/);
    const image = await iso.path();
    expect(execFileSync('isoinfo', ['-d', '-i', image]).toString()).toContain('Volume id: IMGINBOX');
    const fromIso = path.join(work, 'from-iso.dcm');
    await writeFile(fromIso, execFileSync('isoinfo', ['-i', image, '-x', '/DICOM/1/1.;1']));
    expect(execFileSync('dcmftest', [fromIso]).toString()).toMatch(/^yes:/);
    expect(execFileSync('dcmdump', ['+P', '0010,0020', fromIso]).toString()).toContain(`[${NEW_MRN}]`);
    // The original MRN is kept in the file's Original Attributes Sequence.
    expect(execFileSync('dcmdump', ['+P', '0400,0561', fromIso]).toString()).toContain(`[${oldMrn}]`);
  });

  it('adds an attachment and downloads it', async () => {
    await panel().getByRole('tab', { name: 'Attachments' }).click();
    const add = panel().getByRole('button', { name: 'Add', exact: true });
    expect(await add.isDisabled()).toBe(true);
    const pdf = Buffer.from(`%PDF-1.4\n% e2e ${stamp}\n%%EOF\n`);
    await panel()
      .getByLabel('Attachment file')
      .setInputFiles({
        name: `referral-${stamp}.pdf`,
        mimeType: 'application/pdf',
        buffer: pdf,
      });
    await add.click();
    await panel().getByText('Added attachment successfully.').waitFor();
    const table = panel().getByRole('table', { name: 'Attached files' });
    await table.getByText(`referral-${stamp}.pdf`).waitFor();
    const [download] = await Promise.all([
      b.page.waitForEvent('download'),
      table.getByRole('link', { name: `Download referral-${stamp}.pdf` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`referral-${stamp}.pdf`);
    expect(await readFile(await download.path())).toEqual(pdf);
    await screenshot(b.page, 'exam-attachment');
  });

  it('shares the study with Cardiology and sees it under Cardiology · Shared', async () => {
    await panel().getByRole('tab', { name: 'Share' }).click();
    const share = panel().getByRole('button', { name: 'Share', exact: true });
    expect(await share.isDisabled()).toBe(true);
    await panel().getByText('This exam is not currently shared').waitFor();
    await panel().getByLabel('Groups').click();
    await b.page.getByRole('option', { name: 'Cardiology' }).click();
    await panel().getByLabel('Message').fill('  please review  ');
    await share.click();
    await b.page.getByText('Exam successfully shared.').waitFor();
    await panel().getByRole('list', { name: 'Shared with' }).getByText('Cardiology (group)').waitFor();
    await screenshot(b.page, 'exam-02-shared');

    await b.page.getByRole('button', { name: 'Cardiology', exact: true }).click();
    await b.page.waitForURL(/\/group\/[^/]+\/Inbox$/);
    await b.page
      .getByRole('list', { name: 'Cardiology states' })
      .getByRole('link', { name: 'Shared', exact: true })
      .click();
    await b.page.waitForURL(/\/Shared$/);
    await cardWith(NEW_MRN).waitFor();
    // The original is listed under Emergency · Shared w/ group (it has direct shares).
    await b.page.goto(emergencyInbox.replace(/Inbox$/, 'Shared%20w%2F%20group'));
    await cardWith(NEW_MRN).waitFor();
  });

  it('stops sharing from the share list', async () => {
    await b.page.goto(emergencyInbox);
    await openExam(cardWith(mrn));
    await panel().getByRole('tab', { name: 'Share' }).click();
    await panel().getByRole('button', { name: 'Stop sharing with Cardiology' }).click();
    await panel().getByText('This exam is not currently shared').waitFor();
  });

  it('deletes a study and restores it from Deleted items', async () => {
    await b.page.goto(emergencyInbox);
    await listSettled(b.page);
    const card = b.page.getByTestId('study-card').nth(1);
    const victim = await cardMrn(card);
    expect(victim).not.toBe('');
    await openExam(card);
    await panel().getByRole('tab', { name: 'Delete exams' }).click();
    await panel().getByRole('button', { name: 'Delete exam' }).click();
    await b.page.getByText('Exam Deleted Successfully').waitFor();
    await cardWith(victim).waitFor({ state: 'detached' });
    expect(await panel().count()).toBe(0);

    await b.page.goto(emergencyInbox.replace(/Inbox$/, 'Deleted%20items'));
    await openExam(cardWith(victim));
    await panel().getByRole('tab', { name: 'Delete exams' }).click();
    await panel().getByRole('button', { name: 'Restore exam' }).click();
    await b.page.getByText('Exam restored successfully').waitFor();
    await cardWith(victim).waitFor({ state: 'detached' });

    await b.page.goto(emergencyInbox);
    await cardWith(victim).waitFor();
    expect(b.errors).toEqual([]);
  });

  it('downloads a multi-selection as one ZIP', async () => {
    await b.page.goto(emergencyInbox);
    await listSettled(b.page);
    const boxes = b.page.getByTestId('study-card').getByRole('checkbox');
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    const selected = b.page.getByRole('complementary', { name: 'Selected exams' });
    await selected.getByRole('tab', { name: 'Downloads', selected: true }).waitFor();
    expect(await selected.getByRole('tab', { name: 'Delete exams' }).count()).toBe(1);
    const [download] = await Promise.all([
      b.page.waitForEvent('download'),
      selected.getByRole('button', { name: 'Download', exact: true }).click(),
    ]);
    const bytes = await readFile(await download.path());
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    await selected.getByRole('button', { name: 'Clear selection' }).click();
    expect(b.errors).toEqual([]);
  });
});
