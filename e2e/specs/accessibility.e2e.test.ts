import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openBrowser, SCREENSHOTS } from '../support/browser';
import { apiLogin, apiPost, signIn } from '../support/actions';
import { uploadedStudy, uploadFreshStudy } from '../support/studies';
import { blocking, countsTable, runAxe, type ScreenReport } from '../support/axe';
import { TABLES } from '../support/english-leaks';
import { settled, walkAdmin, walkClinician, walkGatekeeper, type Words } from '../support/english-walk';

const baseUrl = inject('baseUrl');

type Language = 'en' | 'fr';
type Look = (where: string) => Promise<void>;

/** Opens a dialog with `open`, looks at it, closes it with Escape and waits until it is gone. */
async function inDialog(page: Page, where: string, look: Look, open: () => Promise<void>): Promise<void> {
  await open();
  const dialog = page.getByRole('dialog').last();
  await dialog.waitFor();
  await settled(page);
  await look(where);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
}

/** The clinician's dialogs and pickers: search tips, the share tab's group picker. */
async function clinicianDialogs(page: Page, words: Words, look: Look): Promise<void> {
  await page.goto('/group/list');
  await page.getByTestId('study-card').first().waitFor();
  await page
    .getByRole('button', { name: words('Advanced search') })
    .first()
    .click();
  await inDialog(page, 'dialog: search tips', look, () =>
    page.getByRole('button', { name: words('Search tips') }).click(),
  );
  await page.keyboard.press('Escape');
  await page.getByTestId('study-card').first().getByRole('button').first().click();
  const aside = page.locator('aside');
  await aside.locator('[id$="-tab-share"]').click();
  await settled(page);
  await aside.getByLabel(words('Groups')).click();
  await page.getByRole('listbox').waitFor();
  await settled(page);
  await look('share: group picker');
  await page.keyboard.press('Escape');
}

/** The exam this spec nominates to PACS Intake, for the gatekeeper's Process steps and dialogs. */
const NOMINATED_MRN = `AXE-${Date.now().toString(36).toUpperCase()}`;

/** A fresh exam of Cardiology, nominated to PACS Intake through the api as its form would. */
async function nominateFreshExam(): Promise<void> {
  const sid = await apiLogin(baseUrl, 'clinician@demo.local');
  await uploadFreshStudy(baseUrl, sid, 'Cardiology', NOMINATED_MRN);
  const study = await uploadedStudy(baseUrl, sid, NOMINATED_MRN);
  // The clinician is not of PACS Intake: its id comes from the administrator's list of groups.
  const admin = await apiLogin(baseUrl, 'admin@demo.local');
  const { groups } = await apiPost<{ groups: { uuid: string; name: string }[] }>(baseUrl, 'group/list', {
    sid: admin,
  });
  const intake = groups.find((g) => g.name === 'PACS Intake')!;
  const nominated = await apiPost<{ status: string }>(baseUrl, 'study/nominate', {
    sid,
    uuid: String(study.uuid),
    gatekeeper_id: intake.uuid,
    'customfield-priority': 'Routine',
    'customfield-reason_for_visit': 'Outside CT for the tumour board',
    'customfield-nominated_by': 'Dr Claire Clinician',
  });
  if (nominated.status !== 'OK') throw new Error(`nomination refused: ${JSON.stringify(nominated)}`);
}

/** The gatekeeper's nomination: the Reject dialog, then the Send to PACS step. */
async function gatekeeperDialogs(page: Page, words: Words, look: Look): Promise<void> {
  await page.goto('/group/list');
  await page.getByRole('button', { name: 'PACS Intake' }).click();
  await page.getByRole('link', { name: words('Nominations') }).click();
  const card = page.getByTestId('study-card').filter({ hasText: NOMINATED_MRN });
  await card.getByRole('button').first().click();
  const aside = page.locator('aside');
  await aside.locator('[id$="-tab-process"]').click();
  await settled(page);
  await inDialog(page, 'dialog: reject nomination', look, () =>
    aside.getByRole('button', { name: words('Reject'), exact: true }).click(),
  );
  await aside.getByRole('button', { name: words('Process'), exact: true }).click();
  await aside.getByRole('form', { name: words('Send to PACS') }).waitFor();
  await settled(page);
  await look('process: send to PACS');
}

/** The administrator's dialogs: add destination, role edit, invite and edit user, group, rule, label. */
async function adminDialogs(page: Page, words: Words, look: Look): Promise<void> {
  const button = (name: string) => page.getByRole('button', { name: words(name), exact: true });
  /** The first row's first button of the table: its Edit button. */
  const editFirst = () => page.locator('main table tbody tr').first().getByRole('button').first().click();
  await page.goto('/organization/destinations.html');
  await inDialog(page, 'dialog: add destination', look, () => button('Add destination').click());
  await page.goto('/organization/users.html');
  await page.locator('main table tbody tr').first().waitFor();
  await inDialog(page, 'dialog: invite user', look, () => button('Invite user').click());
  await inDialog(page, 'dialog: edit user', look, editFirst);
  await page.getByRole('tab', { name: words('Roles') }).click();
  await page.getByRole('table', { name: words('Roles') }).waitFor();
  await inDialog(page, 'dialog: edit role', look, editFirst);
  await page.goto('/organization/groups.html');
  await inDialog(page, 'dialog: add group', look, () => button('Add group').click());
  await page.goto('/organization/routing-rules.html');
  await inDialog(page, 'dialog: add routing rule', look, () => button('Add routing rule').click());
  await page.goto('/organization/labels.html');
  await inDialog(page, 'dialog: add label', look, () => button('Add label').click());
}

/** Who looks at which screens, then at which dialogs. */
const WALKERS: [string, ...((page: Page, words: Words, look: Look) => Promise<void>)[]][] = [
  ['clinician@demo.local', walkClinician, clinicianDialogs],
  ['gatekeeper@demo.local', walkGatekeeper, gatekeeperDialogs],
  ['admin@demo.local', walkAdmin, adminDialogs],
];

/** axe's findings on every screen and dialog one of the demo's people sees, in one language. */
async function axeWalk(
  language: Language,
  [login, ...walks]: (typeof WALKERS)[number],
): Promise<ScreenReport[]> {
  const words: Words = (english) => (language === 'en' ? english : (TABLES[language][english] ?? english));
  const reports: ScreenReport[] = [];
  const sid = await apiLogin(baseUrl, login);
  await apiPost(baseUrl, 'user/set', { sid, language });
  const b = await openBrowser(baseUrl);
  try {
    await b.page.setViewportSize({ width: 1280, height: 800 });
    await signIn(b.page, login);
    await b.page.waitForURL('**/group/list');
    const who = login.split('@')[0]!;
    const seen = new Set<string>();
    const look: Look = async (where) => {
      // The same screen reached twice (a dialog's page) is judged once.
      if (seen.has(where)) return;
      seen.add(where);
      reports.push(await runAxe(b.page, `${who} ${where}`));
    };
    for (const walk of walks) await walk(b.page, words, look);
  } finally {
    await b.close();
    await apiPost(baseUrl, 'user/set', { sid, language: '' });
  }
  return reports;
}

/**
 * axe's findings on every screen and dialog the demo's three people see, in one language: the
 * three walk at once (each in a browser of their own, with their own language setting).
 */
async function axeEverywhere(language: Language): Promise<ScreenReport[]> {
  const reports = (await Promise.all(WALKERS.map((walker) => axeWalk(language, walker)))).flat();
  // Kept for a look at a run's details (git-ignored, beside the screenshots).
  await mkdir(SCREENSHOTS, { recursive: true });
  await writeFile(path.join(SCREENSHOTS, `axe-${language}.json`), JSON.stringify(reports, null, 1));
  return reports;
}

/**
 * axe-core on every route, exam tab, admin page and main dialog, as the demo's clinician, gatekeeper
 * and administrator, in English and French: the count of broken rules per screen by impact is
 * printed, and no rule of impact serious or critical may be broken anywhere.
 */
describe('accessibility', () => {
  beforeAll(nominateFreshExam);
  // A walk cut short (a timeout) must not leave its people in French for the specs after it.
  afterAll(async () => {
    for (const [login] of WALKERS) {
      await apiPost(baseUrl, 'user/set', { sid: await apiLogin(baseUrl, login), language: '' });
    }
  });

  it.each(['en', 'fr'] as const)(
    'finds no serious or critical axe violation on any screen in %s',
    async (language) => {
      const reports = await axeEverywhere(language);
      console.log(`axe-core, ${language}: rules broken per screen\n${countsTable(reports)}`);
      expect(blocking(reports)).toEqual([]);
    },
    // About a minute and a half on a quiet machine; a busy one (other test runs) takes much longer.
    300_000,
  );
});
