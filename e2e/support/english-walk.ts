import type { Page } from 'playwright-core';
import { visibleTexts } from './english-leaks';

/** Called with each screen's name and the texts seen on it (the walk waits for it, as axe runs there). */
export type Record = (where: string, texts: string[]) => void | Promise<void>;

/** The walk's view of the language: an English text as the page shows it (to find buttons by name). */
export type Words = (english: string) => string;

/**
 * Waits for the page's loads to end (no busy region, no spinner: MUI's, or the plain one drawn while
 * the router's code loads, which speaks the device's language until the user's own is known), then
 * for transitions.
 */
export async function settled(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () =>
        !document.querySelector(
          '[aria-busy="true"], .MuiCircularProgress-root, .MuiSkeleton-root, .si-waiting',
        ),
      undefined,
      { timeout: 10_000 },
    )
    .catch(() => undefined);
  await page.waitForTimeout(250);
}

async function look(page: Page, where: string, record: Record): Promise<void> {
  await settled(page);
  await record(where, await visibleTexts(page));
}

/**
 * Clicks each tab of the tab lists inside `scope` in turn, recording each one's screen; a tab id in
 * `walked` (the same exam tab of another group) is skipped, so the walk stays a few minutes long.
 */
async function everyTab(
  page: Page,
  scope: string,
  where: string,
  record: Record,
  walked = new Set<string>(),
): Promise<void> {
  const tabs = page.locator(`${scope} [role="tab"]`);
  const count = await tabs.count();
  for (let i = 0; i < count; i++) {
    const tab = tabs.nth(i);
    if (!(await tab.isVisible()) || (await tab.isDisabled())) continue;
    const id = (await tab.getAttribute('id')) ?? String(i);
    const kind = id.replace(/^.*-tab-/, '');
    if (walked.has(kind)) continue;
    walked.add(kind);
    await tab.click();
    await look(page, `${where} tab ${id.replace(/^.*-tab-/, '')}`, record);
  }
}

/** The groups of the signed-in user's menu, as their pages' paths. */
async function groupPaths(page: Page): Promise<string[]> {
  await page.goto('/group/list');
  await page.locator('a[href^="/group/"]').first().waitFor();
  const hrefs = await page
    .locator('a[href^="/group/"]')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  return [...new Set(hrefs.map((h) => h.split('/').slice(0, 3).join('/')))].filter(
    (h) => h !== '/group/list',
  );
}

/** Opens a group's page and its first exam, and walks every exam tab. */
async function walkGroup(
  page: Page,
  path: string,
  record: Record,
  walked: Set<string>,
  words?: Words,
): Promise<void> {
  await page.goto(path);
  await settled(page);
  const card = page.getByTestId('study-card').first();
  // A group may be empty (the archive before anything is sent there): its page alone is walked.
  if (
    !(await card.waitFor({ timeout: 5_000 }).then(
      () => true,
      () => false,
    ))
  ) {
    await look(page, path, record);
    return;
  }
  await look(page, path, record);
  await card.getByRole('button').first().click();
  await page.locator('aside [role="tab"]').first().waitFor();
  await everyTab(page, 'aside', `${path} exam`, record, walked);
  if (words) await walkProcess(page, words, record);
}

/** The advanced search panel, and its study-date picker on a custom range. */
async function walkAdvancedSearch(page: Page, words: Words, record: Record): Promise<void> {
  await page
    .getByRole('button', { name: words('Advanced search') })
    .first()
    .click();
  const field = page.locator('input[aria-haspopup="dialog"]').first();
  await field.waitFor();
  await look(page, 'advanced search', record);
  await field.click();
  const picker = page.getByRole('dialog').last();
  await picker.getByRole('button', { name: words('Custom date range') }).click();
  await look(page, 'date picker', record);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
}

/** The Process tab's steps past the nomination: the order search, then the comparison. */
async function walkProcess(page: Page, words: Words, record: Record): Promise<void> {
  const aside = page.locator('aside');
  const tab = aside.locator('[id$="-tab-process"]');
  if (!(await tab.isVisible().catch(() => false))) return;
  await tab.click();
  const process = aside.getByRole('button', { name: words('Process'), exact: true });
  if (!(await process.isVisible().catch(() => false))) return;
  await process.click();
  await look(page, 'process: order search', record);
  const candidate = aside.locator('[role="button"].MuiListItemButton-root, .MuiListItemButton-root').first();
  if (await candidate.isVisible().catch(() => false)) {
    await candidate.click();
    await look(page, 'process: comparison', record);
  }
}

/** A clinician's screens: their groups and exams, upload, request, retrieve, settings, Advanced UI. */
export async function walkClinician(page: Page, words: Words, record: Record): Promise<void> {
  const groups = await groupPaths(page);
  await look(page, '/group/list', record);
  await walkAdvancedSearch(page, words, record);
  const walked = new Set<string>();
  for (const path of groups) await walkGroup(page, path, record, walked);
  const groupId = groups[0]!.split('/')[2]!;
  for (const path of [
    '/study/upload',
    `/study/request/${groupId}`,
    `/study/retrieve/${groupId}`,
    '/worklist',
  ]) {
    await page.goto(path);
    await look(page, path, record);
  }
  await page.goto('/account-settings');
  await page.locator('main [role="tab"], [role="tablist"] [role="tab"]').first().waitFor();
  await everyTab(page, '[role="tablist"]', '/account-settings', record);
}

/** The gatekeeper's screens: PACS Intake's nominations with every exam tab, the archive. */
export async function walkGatekeeper(page: Page, words: Words, record: Record): Promise<void> {
  const walked = new Set<string>();
  for (const path of await groupPaths(page)) await walkGroup(page, path, record, walked, words);
}

export const ADMIN_PAGES = [
  '/organization/destinations.html',
  '/organization/users.html',
  '/organization/groups.html',
  '/organization/routing-rules.html',
  '/organization/audit.html',
  '/organization/labels.html',
];

/** The administrator's pages, each of their tabs. */
export async function walkAdmin(page: Page, _words: Words, record: Record): Promise<void> {
  for (const path of ADMIN_PAGES) {
    await page.goto(path);
    await look(page, path, record);
    await everyTab(page, 'main', path, record);
  }
}
