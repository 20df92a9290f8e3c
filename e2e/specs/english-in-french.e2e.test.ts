import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowser } from '../support/browser';
import { apiLogin, apiPost, signIn } from '../support/actions';
import { TABLES, englishFinder, type Language } from '../support/english-leaks';
import { walkAdmin, walkClinician, walkGatekeeper, type Record, type Words } from '../support/english-walk';
import { ownServer } from '../support/server';

// A server of its own: the shared one holds what other specs typed in English (messages, reasons),
// which is data, not the product's words, and which order they ran in decides.
const own = ownServer();

/** Who walks which screens: the clinician's groups and pages, the gatekeeper's, the admin pages. */
const WALKERS: [string, (page: Page, words: Words, record: Record) => Promise<void>][] = [
  ['clinician@demo.local', walkClinician],
  ['gatekeeper@demo.local', walkGatekeeper],
  ['admin@demo.local', walkAdmin],
];

/**
 * English texts that are data where they show, not the product's words: [the screen, the text].
 * Keep it short; a product text belongs in the locale tables instead.
 */
const ALLOWED: [RegExp, string][] = [
  // The demo's role named "Referring physician" on the Users page.
  [/^\/organization\/users\.html/, 'Referring physician'],
  // The options of the demo's "Clinical priority" custom field, as the account wrote them.
  [/exam tab exchange$/, 'Routine'],
];

/** Whether `text` on the screen `where` is data the list allows. */
const allowedOn = (where: string, text: string) =>
  ALLOWED.some(([screen, allowed]) => screen.test(where) && allowed === text);

/** Each English text seen, with the screens it was seen on. */
async function englishSeen(language: Language): Promise<string[]> {
  const find = englishFinder(language, []);
  const words: Words = (english) => TABLES[language][english] ?? english;
  const seen = new Map<string, Set<string>>();
  for (const [login, walk] of WALKERS) {
    const sid = await apiLogin(own.baseUrl, login);
    await apiPost(own.baseUrl, 'user/set', { sid, language });
    const b = await openBrowser(own.baseUrl);
    try {
      await b.page.setViewportSize({ width: 1280, height: 800 });
      await signIn(b.page, login);
      await b.page.waitForURL('**/group/list');
      await walk(b.page, words, (where, texts) => {
        for (const text of texts) {
          if (allowedOn(where, text)) continue;
          const why = find(text);
          if (!why) continue;
          const key = `${JSON.stringify(text)} (${why})`;
          seen.set(key, (seen.get(key) ?? new Set()).add(`${login.split('@')[0]} ${where}`));
        }
      });
    } finally {
      await b.close();
      await apiPost(own.baseUrl, 'user/set', { sid, language: '' });
    }
  }
  return [...seen].map(([text, where]) => `${text} on ${[...where].slice(0, 3).join(', ')}`);
}

/**
 * Every route and every exam tab of the demo world, as its clinician, gatekeeper and administrator
 * see them in French and in Spanish: no visible text (nor placeholder, label or title) may be an
 * English text of the catalogue or hold a known English word.
 */
describe('no English left in a French or Spanish page', () => {
  it.each(['fr', 'es'] as const)(
    'walks every screen in %s and finds no English',
    async (language) => {
      expect(await englishSeen(language)).toEqual([]);
    },
    240_000,
  );
});
