import { describe, expect, it } from 'vitest';
import { apiLogin, apiPost, listSettled, signIn } from '../support/actions';
import { openBrowser, screenshot, SMALL_WINDOW } from '../support/browser';
import { ownServer } from '../support/server';

// A server of its own: on the shared one, specs that ran first may have sent exams to Referrals.
const own = ownServer();

/**
 * What each demo user sees first after signing in, in English and in French at 1280×800: the first
 * state of their first group (libraries sort first), holding exams for everyone of Demo Hospital,
 * with a footer that counts them. Partner Clinic's Referrals starts empty: nothing was sent to it.
 */
const USERS = [
  { login: 'admin@demo.local', group: 'PACS Archive', exams: true },
  { login: 'clinician@demo.local', group: 'Cardiology', exams: true },
  { login: 'gatekeeper@demo.local', group: 'PACS Archive', exams: true },
  { login: 'viewer@demo.local', group: 'Emergency', exams: true },
  { login: 'partner@demo.local', group: 'Referrals', exams: false },
] as const;

describe('each demo user’s first screen', () => {
  it.each(USERS.flatMap((user) => (['en', 'fr'] as const).map((language) => ({ ...user, language }))))(
    '$login in $language opens $group',
    async ({ login, group, exams, language }) => {
      const sid = await apiLogin(own.baseUrl, login);
      await apiPost(own.baseUrl, 'user/set', { sid, language: language === 'en' ? '' : language });
      const b = await openBrowser(own.baseUrl);
      try {
        await b.page.setViewportSize(SMALL_WINDOW);
        await signIn(b.page, login);
        await b.page.waitForURL('**/group/list');
        await b.page.getByRole('heading', { level: 2, name: new RegExp(`^${group} · `) }).waitFor();
        await listSettled(b.page);
        const cards = b.page.getByTestId('study-card');
        const range = b.page.locator('.MuiTablePagination-displayedRows');
        if (exams) {
          await cards.first().waitFor();
          const shown = await cards.count();
          // "1–6 of 6" (or "1–6 sur 6"): the range over the cards the page holds, and their total.
          await expect.poll(() => range.textContent()).toMatch(new RegExp(`^1–${shown}\\D+\\d+$`));
        } else {
          expect(await cards.count()).toBe(0);
        }
        await screenshot(b.page, `first-screen-${login.split('@')[0]}-${language}`);
        expect(b.errors).toEqual([]);
      } finally {
        await b.close();
        await apiPost(own.baseUrl, 'user/set', { sid, language: '' });
      }
    },
  );
});
