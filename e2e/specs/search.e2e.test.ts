import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { apiGet, apiLogin, apiPost, listSettled, signIn } from '../support/actions';

const baseUrl = inject('baseUrl');

/** Opens the advanced panel (unless it is open already) and clears it. */
async function openAdvanced(b: BrowserSession) {
  const toggle = b.page.getByRole('button', { name: 'Advanced search' });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  const panel = b.page.getByRole('form', { name: 'Advanced search' });
  // Clearing drops the chips of an earlier tag search, which moves the buttons below them up: a
  // click aimed before that render lands on the field now in their place. On a loaded machine the
  // first click may also come while the earlier search's results still render: click until clear.
  const chips = panel.locator('.MuiChip-root');
  await expect
    .poll(async () => {
      await panel.getByRole('button', { name: 'Clear' }).click();
      return chips.count();
    })
    .toBe(0);
  return panel;
}

describe('study search', () => {
  let b: BrowserSession;
  beforeAll(async () => {
    b = await openBrowser(baseUrl);
    await signIn(b.page, 'clinician@demo.local');
    await b.page.waitForURL('**/group/list');
    await b.page.getByRole('button', { name: 'All My Groups' }).click();
    await b.page.waitForURL(/\/group\/0\/Inbox$/);
    await b.page.getByTestId('study-card').first().waitFor();
  });
  afterAll(async () => {
    await b.close();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail')
      await screenshot(b.page, `failed-${ctx.task.name.replace(/\W+/g, '-')}`);
  });

  it('searches by patient name', async () => {
    const first = (await b.page.locator('[data-testid="study-card"] h3').first().textContent()) ?? '';
    const lastName = first.split(',')[0]!.trim();
    await b.page.getByRole('search').getByLabel('Patient name').fill(lastName.toLowerCase());
    await b.page.getByRole('search').getByRole('button', { name: 'Search', exact: true }).click();
    await b.page.getByText(/^Search results in All My Groups/).waitFor();
    await listSettled(b.page);
    const names = await b.page.locator('[data-testid="study-card"] h3').allTextContents();
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(name.toUpperCase()).toContain(lastName.toUpperCase());
    await screenshot(b.page, '05-search-patient-name');

    await b.page.getByRole('button', { name: 'Clear Search' }).click();
    await expect.poll(() => b.page.getByRole('search').getByLabel('Patient name').inputValue()).toBe('');
  });

  it('disables the bar while the advanced panel is open', async () => {
    await b.page.getByRole('button', { name: 'Advanced search' }).click();
    expect(await b.page.getByRole('search').getByLabel('Patient name').isDisabled()).toBe(true);
    await b.page.getByRole('button', { name: 'Advanced search' }).click();
    expect(await b.page.getByRole('search').getByLabel('Patient name').isDisabled()).toBe(false);
  });

  it('searches by modality with the advanced panel', async () => {
    const modality = (await b.page.locator('[data-testid="study-modality"]').first().textContent()) ?? 'CT';
    const panel = await openAdvanced(b);
    await panel.getByRole('combobox', { name: 'Modality' }).click();
    await b.page.getByRole('option', { name: 'All' }).click();
    await b.page.getByRole('option', { name: modality, exact: true }).click();
    // The open menu hides the rest of the page from the accessibility tree; close it first.
    await b.page.keyboard.press('Escape');
    expect(await panel.getByRole('combobox', { name: 'Modality' }).textContent()).toBe('1 Selected');
    await screenshot(b.page, '06-advanced-search');
    await panel.getByRole('button', { name: 'Search', exact: true }).click();
    await b.page.getByRole('form', { name: 'Advanced search' }).waitFor({ state: 'detached' });
    await listSettled(b.page);
    const chips = await b.page.locator('[data-testid="study-modality"]').allTextContents();
    expect(chips.length).toBeGreaterThan(0);
    for (const chip of chips) expect(chip).toBe(modality);
  });

  it('searches by an uploaded-date preset', async () => {
    const panel = await openAdvanced(b);
    await panel.getByLabel('Uploaded date').click();
    const picker = b.page.getByRole('dialog', { name: 'Uploaded date' });
    expect(await picker.getByRole('grid').count()).toBe(2);
    expect(await picker.getByRole('button', { name: 'Yesterday', exact: true }).count()).toBe(0);
    await screenshot(b.page, '07-date-picker');
    await picker.getByRole('button', { name: 'Last 7 days' }).click();
    await picker.waitFor({ state: 'detached' });
    expect(await panel.getByLabel('Uploaded date').inputValue()).toBe('Last 7 days');
    await panel.getByRole('button', { name: 'Search', exact: true }).click();
    await listSettled(b.page);
    // The demo world was seeded moments ago: everything was uploaded within the last 7 days.
    expect(await b.page.getByTestId('study-card').count()).toBeGreaterThan(0);
  });

  it('searches by tag with the type-ahead', async () => {
    const sid = await apiLogin(baseUrl, 'clinician@demo.local');
    const tags = await apiGet<{ tags?: { tag: string }[] }>(baseUrl, 'tag/list', {
      sid,
      'filter.tag.like': '%',
      'page.rows': '25',
    });
    const tag = tags.tags?.[0]?.tag;
    if (!tag) return; // the demo world has no tags yet
    const panel = await openAdvanced(b);
    await panel.getByLabel('Tags').fill(tag.slice(0, 2));
    await b.page.getByRole('option', { name: tag, exact: true }).click();
    await panel.getByRole('button', { name: 'Search', exact: true }).click();
    await listSettled(b.page);
    const cards = b.page.getByTestId('study-card');
    expect(await cards.count()).toBeGreaterThan(0);
    for (const card of await cards.all()) {
      expect(await card.getByTestId('study-tag').allTextContents()).toContain(tag);
    }
    expect(b.errors).toEqual([]);
  });

  it('saves a search and applies it again', async () => {
    const panel = await openAdvanced(b);
    await panel.getByLabel('MRN').fill('MRN-SAVED');
    await panel.getByRole('button', { name: 'Save search' }).click();
    await b.page.getByLabel('Search name').fill('My MRN search');
    await b.page.getByRole('button', { name: 'Save', exact: true }).click();
    await b.page.getByText('Search saved').waitFor();
    await panel.getByRole('button', { name: 'Clear' }).click();
    expect(await panel.getByLabel('MRN').inputValue()).toBe('');
    await panel.getByRole('button', { name: 'Saved searches' }).click();
    await b.page.getByRole('menuitem', { name: 'My MRN search' }).click();
    expect(await panel.getByLabel('MRN').inputValue()).toBe('MRN-SAVED');
    await panel.getByRole('button', { name: 'Clear' }).click();
    await panel.getByRole('button', { name: 'Search', exact: true }).click();
  });
});

describe("date of birth in the user's date format", () => {
  // The referring physician's Profile says DD-MM-YYYY here; put back to the default afterwards.
  const LOGIN = 'viewer@demo.local';
  let b: BrowserSession;
  let sid: string;
  let birthDate: string;
  beforeAll(async () => {
    sid = await apiLogin(baseUrl, LOGIN);
    const { studies } = await apiGet<{ studies: { patient_birth_date: string | null }[] }>(
      baseUrl,
      'study/list',
      {
        sid,
        'page.rows': '50',
      },
    );
    // A day after the 12th, so the US order of it is no day in DD-MM-YYYY.
    birthDate = studies
      .map((s) => s.patient_birth_date ?? '')
      .find((d) => /^\d{8}$/.test(d) && Number(d.slice(6, 8)) > 12)!;
    await apiPost(baseUrl, 'user/set', { sid, date_format: 'DD-MM-YYYY' });
    b = await openBrowser(baseUrl);
    await signIn(b.page, LOGIN);
    await b.page.waitForURL('**/group/list');
    await b.page.getByRole('button', { name: 'All My Groups' }).click();
    await b.page.getByTestId('study-card').first().waitFor();
  });
  afterAll(async () => {
    await b?.close();
    await apiPost(baseUrl, 'user/set', { sid, date_format: 'MM-DD-YYYY' });
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail')
      await screenshot(b.page, `failed-${ctx.task.name.replace(/\W+/g, '-')}`);
  });

  it('is typed as DD-MM-YYYY and finds the exams of that day', async () => {
    const panel = await openAdvanced(b);
    const field = panel.getByLabel('Date of birth');
    expect(await field.getAttribute('placeholder')).toBe('DD-MM-YYYY');
    const day = `${birthDate.slice(6, 8)}-${birthDate.slice(4, 6)}-${birthDate.slice(0, 4)}`;
    // The US order of the same day is refused.
    await field.fill(`${birthDate.slice(4, 6)}-${birthDate.slice(6, 8)}-${birthDate.slice(0, 4)}`);
    await panel.getByText('Use the date format DD-MM-YYYY').waitFor();
    expect(await panel.getByRole('button', { name: 'Search', exact: true }).isDisabled()).toBe(true);
    await screenshot(b.page, 'search-birth-date-us-order-refused');
    await field.fill(day);
    await panel.getByRole('button', { name: 'Search', exact: true }).click();
    await b.page.getByText(/^Search results in All My Groups/).waitFor();
    await listSettled(b.page);
    await screenshot(b.page, 'search-birth-date-dd-mm-yyyy');
    const cards = await b.page.getByTestId('study-card').allTextContents();
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) expect(card).toContain(`DOB: ${day}`);
  });
});
