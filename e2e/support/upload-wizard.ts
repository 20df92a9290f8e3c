import type { Page } from 'playwright-core';

/** On the wizard's Destination step: picks the group and goes on to Find Exams. */
export async function chooseDestination(page: Page, group = 'Emergency'): Promise<void> {
  await page.getByRole('combobox', { name: 'Destination' }).click();
  await page.getByRole('option', { name: group }).click();
  await page.getByRole('button', { name: 'Next' }).click();
}

/** Opens the upload wizard and goes to Find Exams with `group` as destination. */
export async function openFindExams(page: Page, group = 'Emergency'): Promise<void> {
  await page.goto('/study/upload');
  await chooseDestination(page, group);
}
