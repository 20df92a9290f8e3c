import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { listSettled, signIn } from '../support/actions';
import { openFindExams } from '../support/upload-wizard';

const baseUrl = inject('baseUrl');

/** Real DICOM files from other tools (pydicom's test set): CT, MR, RT objects, a report, a waveform. */
const PYDICOM_FILES = '/usr/lib/python3/dist-packages/pydicom/data/test_files';
const REAL_FILES = [
  'CT_small.dcm',
  'MR_small.dcm',
  'liver_1frame.dcm',
  'rtplan.dcm',
  'rtdose.dcm',
  'rtstruct.dcm',
  'test-SR.dcm',
  'waveform_ecg.dcm',
];

/**
 * Labels of the exam-details tabs cut inside their tab, or out of reach: the strip is one row that
 * scrolls sideways, so a tab past its edge is reached by scrolling it into view.
 */
function cutTabLabels(b: BrowserSession): Promise<string[]> {
  return b.page.evaluate(() => {
    const strip = document.querySelector<HTMLElement>('[aria-label="Exam details tabs"]');
    if (!strip) return ['no tab strip'];
    const box = (strip.closest('.MuiTabs-scroller') ?? strip).getBoundingClientRect();
    return Array.from(strip.querySelectorAll<HTMLElement>('[role="tab"]'))
      .filter((tab) => {
        tab.scrollIntoView({ block: 'nearest', inline: 'nearest' });
        const r = tab.getBoundingClientRect();
        return tab.scrollWidth > tab.clientWidth + 1 || r.left < box.left - 1 || r.right > box.right + 1;
      })
      .map((tab) => tab.textContent ?? '');
  });
}

/**
 * The common screens at the two usual window sizes, each kept as a screenshot in the browser tests'
 * output so the next person sees what a user sees, with the checks of what used to be wrong there.
 */
describe.each([
  [1280, 800],
  [1920, 1080],
])('screens at %i×%i', (width, height) => {
  let b: BrowserSession;
  const name = (screen: string) => `screens-${width}x${height}-${screen}`;
  beforeAll(async () => {
    b = await openBrowser(baseUrl);
    await b.page.setViewportSize({ width, height });
    await signIn(b.page, 'clinician@demo.local');
    await b.page.waitForURL('**/group/list');
    await b.page.getByTestId('study-card').first().waitFor();
    await listSettled(b.page);
  });
  afterAll(async () => {
    await b.close();
  });

  it('inbox, and the exam details with every tab label whole', async () => {
    await screenshot(b.page, name('inbox'));
    await b.page.getByTestId('study-card').first().getByRole('button').first().click();
    const panel = b.page.getByRole('complementary', { name: 'Exam details' });
    await panel.getByRole('tab', { name: 'Summary' }).waitFor();
    await screenshot(b.page, name('exam-details'));
    expect(await cutTabLabels(b)).toEqual([]);
  });

  it('account settings fits the window with its top bar', async () => {
    await b.page.goto('/account-settings');
    await b.page.getByRole('tab', { name: 'Profile' }).waitFor();
    await listSettled(b.page);
    await screenshot(b.page, name('account-settings'));
    // The page scrolls inside its pane: the window itself never scrolls the top bar away.
    const overflow = await b.page.evaluate(() => ({
      x: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      y: document.documentElement.scrollHeight - document.documentElement.clientHeight,
    }));
    expect(overflow).toEqual({ x: 0, y: 0 });
  });

  it('profile labels stay above their values after Clear, and the Group box names a group off a group page', async () => {
    await b.page.goto('/account-settings');
    const first = b.page.getByLabel(/^First name/);
    await first.waitFor();
    await listSettled(b.page);
    const stored = await first.inputValue();
    await first.fill('Changed');
    await b.page.getByRole('form', { name: 'Profile' }).getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => first.inputValue()).toBe(stored);
    await screenshot(b.page, name('profile-after-clear'));
    const shrunk = await b.page.evaluate(() =>
      Array.from(document.querySelectorAll('form[aria-label="Profile"] label')).map((l) =>
        l.getAttribute('data-shrink'),
      ),
    );
    expect(shrunk.length).toBeGreaterThan(0);
    expect(shrunk.every((v) => v === 'true')).toBe(true);
    const group = b.page.getByRole('combobox', { name: 'Group' });
    expect((await group.textContent())?.trim()).not.toBe('');
  });

  it('/404 says the inbox is not available', async () => {
    await b.page.goto('/404');
    await b.page.getByText('Inbox not available').waitFor();
    await screenshot(b.page, name('inbox-unavailable'));
    expect(await b.page.getByText('Page not found').count()).toBe(0);
  });

  it('upload wizard', async () => {
    await b.page.goto('/study/upload');
    await b.page.getByRole('heading').first().waitFor();
    await listSettled(b.page);
    await screenshot(b.page, name('upload'));
  });

  it('Select Exams keeps its Files and Size columns reachable', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'imaging-inbox-screens-'));
    try {
      await Promise.all(REAL_FILES.map((f) => copyFile(path.join(PYDICOM_FILES, f), path.join(folder, f))));
      await openFindExams(b.page);
      await b.page.getByLabel('DICOM folder').setInputFiles(folder);
      await b.page.getByText(/exams? found in \d+ files/).waitFor();
      await b.page.getByRole('button', { name: 'Next' }).click();
      const frame = b.page.getByRole('region', { name: 'Exams found' });
      const size = frame.getByRole('columnheader', { name: 'Size' });
      await frame.getByRole('row').nth(1).waitFor();
      await listSettled(b.page);
      await screenshot(b.page, name('select-exams'));
      // The frame scrolls sideways inside the window: the window itself never does.
      await frame.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
      await screenshot(b.page, name('select-exams-scrolled'));
      const box = (await frame.boundingBox())!;
      const header = (await size.boundingBox())!;
      expect(header.x).toBeGreaterThanOrEqual(box.x - 1);
      expect(header.x + header.width).toBeLessThanOrEqual(box.x + box.width + 1);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      await frame.getByRole('columnheader', { name: 'Files' }).waitFor();
      expect(
        await b.page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        ),
      ).toBe(0);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('left navigation: Retrieve Study lines up with Request Study', async () => {
    // The account admin holds link_edit and destination_search in every group, so both buttons show.
    const admin = await openBrowser(baseUrl);
    try {
      await admin.page.setViewportSize({ width, height });
      await signIn(admin.page, 'admin@demo.local');
      await admin.page.waitForURL('**/group/list');
      const nav = admin.page.getByRole('navigation').first();
      // A group's actions sit under its study states, shown once the group is open.
      await nav.getByRole('button', { name: 'Cardiology', exact: true }).click();
      const request = nav.getByRole('button', { name: 'Request Study' }).first();
      const retrieve = nav.getByRole('button', { name: 'Retrieve Study' }).first();
      await request.waitFor();
      await retrieve.waitFor();
      await listSettled(admin.page);
      await screenshot(admin.page, name('left-nav'));
      const a = (await request.boundingBox())!;
      const c = (await retrieve.boundingBox())!;
      expect(Math.abs(a.x - c.x)).toBeLessThan(1);
      expect(Math.abs(a.width - c.width)).toBeLessThan(1);
    } finally {
      await admin.close();
    }
  });

  it('Request Study form has the mobile phone and share description', async () => {
    await b.page.goto('/group/list');
    await b.page.getByTestId('study-card').first().waitFor();
    await b.page
      .getByRole('navigation')
      .first()
      .getByRole('button', { name: 'Request Study' })
      .first()
      .click();
    await b.page.getByLabel(/^Mobile phone/).waitFor();
    await b.page.getByLabel(/^Share description/).fill('Knee MRI for the referral');
    await listSettled(b.page);
    await screenshot(b.page, name('request-study'));
    const cut = await b.page.evaluate(
      () =>
        Array.from(document.querySelectorAll('form label')).filter((l) => l.scrollWidth > l.clientWidth + 1)
          .length,
    );
    expect(cut).toBe(0);
  });

  it('share list starts with the exam owner', async () => {
    await b.page.goto('/group/list');
    await b.page.getByTestId('study-card').first().getByRole('button').first().click();
    const panel = b.page.getByRole('complementary', { name: 'Exam details' });
    await panel.getByRole('tab', { name: /Share/ }).click();
    const list = panel.getByRole('list', { name: 'Shared with' });
    await list.getByText('Exam owner').waitFor();
    await screenshot(b.page, name('share-owner'));
    expect((await list.getByRole('listitem').first().textContent()) ?? '').toContain('Exam owner');
  });

  it('date picker opens on the previous and current month with no day after today', async () => {
    await b.page.goto('/group/list');
    await b.page.getByTestId('study-card').first().waitFor();
    await b.page
      .getByRole('button', { name: /Advanced search|Advanced/ })
      .first()
      .click();
    const field = b.page.getByLabel(/^Study date/).first();
    await field.click();
    const grids = b.page.getByRole('grid');
    await grids.first().waitFor();
    await screenshot(b.page, name('date-picker'));
    const now = new Date();
    const monthName = (d: Date) => d.toLocaleString('en-US', { month: 'long', year: 'numeric' });
    expect(await grids.nth(1).getAttribute('aria-label')).toBe(monthName(now));
    expect(await grids.nth(0).getAttribute('aria-label')).toBe(
      monthName(new Date(now.getFullYear(), now.getMonth() - 1, 1)),
    );
    await b.page.keyboard.press('Escape');
  });
});
