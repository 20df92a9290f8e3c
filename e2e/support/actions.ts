import type { Locator, Page } from 'playwright-core';
import { DEMO_PASSWORD } from './server';

export async function signIn(page: Page, login: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Username').fill(login);
  await page.getByLabel('Password', { exact: false }).first().fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Logs in through the api and returns a sid, for preparing data or checks outside the UI. */
export async function apiLogin(baseUrl: string, login: string, password = DEMO_PASSWORD): Promise<string> {
  const res = await fetch(`${baseUrl}/api/v3/session/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ login, password }).toString(),
  });
  const body = (await res.json()) as { sid?: string };
  if (!body.sid) throw new Error(`login failed: ${res.status} ${JSON.stringify(body)}`);
  return body.sid;
}

export async function apiGet<T>(baseUrl: string, path: string, params: Record<string, string>): Promise<T> {
  const res = await fetch(`${baseUrl}/api/v3/${path}?${new URLSearchParams(params).toString()}`);
  return (await res.json()) as T;
}

/** A form-encoded POST to api/v3 with the sid in the body, as the web client sends it. */
export async function apiPost<T>(baseUrl: string, path: string, params: Record<string, string>): Promise<T> {
  const res = await fetch(`${baseUrl}/api/v3/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });
  return (await res.json()) as T;
}

/**
 * Opens a study card's exam in the details panel and waits until the panel shows it. Opening is
 * a router transition: until it commits, the panel still shows the exam open before, and a tab
 * clicked there is lost when the panel remounts for the new exam.
 */
export async function openExam(card: Locator): Promise<void> {
  await card.getByRole('button', { name: /^Open / }).click();
  await card.getByRole('button', { name: /^Open /, pressed: true }).waitFor();
}

/**
 * Waits until no list on the page is loading (the study list marks itself `aria-busy` while it
 * fetches, keeping the previous page's cards on screen meanwhile).
 */
export async function listSettled(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
}

/**
 * Expands a group in the left navigation and waits until one of its states is the routed one and
 * its list has loaded. Until the route commits, the previous group's cards stay on screen (and are
 * not busy), so a card read right after the click may belong to the group left behind.
 */
export async function openGroup(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name, exact: true }).click();
  await page
    .getByRole('list', { name: `${name} states` })
    .locator('[aria-current="page"]')
    .waitFor();
  await listSettled(page);
}
