import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { listSettled, openExam, openGroup, signIn } from '../support/actions';

const baseUrl = inject('baseUrl');
const stamp = Date.now().toString(36).toUpperCase();
const DESCRIPTION = `CT HEAD EXCHANGE ${stamp}`;
const REASON = `Fall at home, headache since (${stamp}).`;

/** The Exchange tab of a gatekeeper: exam fields and Demo Hospital's custom fields, saved and kept. */
describe('Exchange tab: custom fields and exam fields', () => {
  let b: BrowserSession;
  let oldDescription = '';
  beforeAll(async () => {
    b = await openBrowser(baseUrl);
    await signIn(b.page, 'gatekeeper@demo.local');
    await b.page.waitForURL('**/group/list');
    // The gatekeeper's first group is the demo's PACS Archive, which may be empty: open PACS Intake.
    await openGroup(b.page, 'PACS Intake');
    await b.page.getByTestId('study-card').first().waitFor();
    await listSettled(b.page);
  });
  afterAll(async () => {
    await b.close();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail')
      await screenshot(b.page, `failed-exchange-${ctx.task.name.replace(/\W+/g, '-')}`);
  });

  const panel = () => b.page.getByRole('complementary', { name: 'Exam details' });
  const exchange = () => panel().getByRole('form', { name: 'Exchange' });

  it('asks for the mandatory fields, then saves a custom field and the description', async () => {
    await openExam(b.page.getByTestId('study-card').first());
    await panel().getByRole('tab', { name: 'Exchange' }).click();
    const priority = exchange().getByRole('radiogroup', { name: /Clinical priority/ });
    await priority.waitFor();
    oldDescription = await exchange().getByLabel('Description').inputValue();

    await exchange().getByRole('button', { name: 'Save' }).click();
    await exchange().getByText('Please complete all the mandatory fields.').waitFor();
    await exchange().getByText('Please enter a value').first().waitFor();

    await priority.getByRole('radio', { name: 'Urgent' }).check();
    await exchange().getByRole('textbox', { name: 'Referral reason' }).fill(REASON);
    await exchange().getByLabel('Description').fill(DESCRIPTION);
    await exchange().getByRole('button', { name: 'Save' }).click();
    await b.page.getByText('Changes were saved').waitFor();
    await screenshot(b.page, 'exchange-01-saved');
  });

  it('keeps the values after a reload', async () => {
    await b.page.reload();
    await panel().getByRole('tab', { name: 'Exchange' }).click();
    const priority = exchange().getByRole('radiogroup', { name: /Clinical priority/ });
    await priority.waitFor();
    expect(await priority.getByRole('radio', { name: 'Urgent' }).isChecked()).toBe(true);
    expect(await exchange().getByRole('textbox', { name: 'Referral reason' }).inputValue()).toBe(REASON);
    expect(await exchange().getByLabel('Description').inputValue()).toBe(DESCRIPTION);
  });

  it('shows both changes in the exam history', async () => {
    await panel().getByRole('tab', { name: 'Summary' }).click();
    await panel().getByRole('button', { name: 'Exam history' }).click();
    await panel().getByText('Clinical priority: — → Urgent', { exact: false }).first().waitFor();
    await panel()
      .getByText(`Description: ${oldDescription || '—'} → ${DESCRIPTION}`, { exact: false })
      .first()
      .waitFor();
    await screenshot(b.page, 'exchange-02-history');
  });
});
