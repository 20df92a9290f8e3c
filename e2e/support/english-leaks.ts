import type { Page } from 'playwright-core';
import fr from '../../apps/web/src/locales/fr';
import es from '../../apps/web/src/locales/es';

/** The translated tables, keyed by their English text (apps/web/src/lib/i18n.ts). */
export const TABLES = { fr, es } as const;
export type Language = keyof typeof TABLES;

/**
 * Words that are English and neither French nor Spanish, so one of them inside a French or Spanish
 * page is a text left untranslated. Short on purpose: each must be absent from the demo world's
 * data (names, descriptions) that the pages show.
 */
export const ENGLISH_WORDS = [
  'the',
  'and',
  'with',
  'without',
  'from',
  'which',
  'equals',
  'returned',
  'view',
  'day',
  'days',
  'week',
  'weeks',
  'month',
  'months',
  'year',
  'years',
  'hours',
  'Order',
  'Orders',
  'Reason',
  'Nominated',
  'January',
  'February',
  'March',
  'April',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
  'Search',
  'Settings',
  'Cancel',
  'Save',
  'Close',
  'Share',
  'Upload',
  'Download',
  'Send',
  'Please',
  'Select',
  'Choose',
  'share',
  'search',
  'Thumbnail',
];

// Sent as source text: a bundler's helpers (esbuild's __name) must not leak into the page's function.
const VISIBLE_TEXTS = `(() => {
  const out = [];
  const seen = (el) =>
    !!el &&
    el.checkVisibility({ opacityProperty: true, visibilityProperty: true }) &&
    !el.closest('script, style, noscript, [data-i18n-data], iframe');
  const add = (value) => {
    const text = (value ?? '').replace(/\\s+/g, ' ').trim();
    if (text) out.push(text);
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent?.tagName === 'OPTION') continue;
    if (seen(parent)) add(node.textContent);
  }
  for (const el of document.querySelectorAll('[placeholder], [aria-label], [title]')) {
    if (!seen(el)) continue;
    add(el.getAttribute('placeholder'));
    add(el.getAttribute('aria-label'));
    add(el.getAttribute('title'));
  }
  for (const select of document.querySelectorAll('select')) {
    if (!seen(select)) continue;
    for (const option of select.options) add(option.textContent);
  }
  return out;
})()`;

/**
 * Every text a user sees on the page now: visible text nodes, and the placeholders, labels and titles
 * of visible elements, and the options of visible native selects. Elements marked `data-i18n-data`
 * hold data (names, descriptions) and are left out.
 */
export async function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(VISIBLE_TEXTS);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A catalogue key as a pattern: its `{{values}}` match anything. */
function keyPattern(key: string): RegExp {
  const parts = key.split(/\{\{\s*\w+\s*\}\}/);
  return new RegExp(`^${parts.map(escape).join('.+?')}$`);
}

/**
 * The finder of English texts for one language: a text is English when it is a catalogue key (its
 * English text, values as wildcards) that the language writes differently, or holds a known English
 * word; texts the language itself writes, and the allow-list, never count.
 */
export function englishFinder(language: Language, allowed: readonly (string | RegExp)[]) {
  const table: Readonly<Record<string, string>> = TABLES[language];
  const own = new Set(Object.values(table));
  // The language's own texts with values ("{{count}} images" is French too): a match is not English.
  const ownPatterns = [...own]
    .filter((text) => text.includes('{{') && /\p{L}{2}/u.test(text.replace(/\{\{\s*\w+\s*\}\}/g, '')))
    .map(keyPattern);
  const plain = new Set<string>();
  const patterns: { key: string; pattern: RegExp }[] = [];
  for (const [form, text] of Object.entries(table)) {
    const key = form.replace(/_(zero|one|two|few|many|other)$/, '');
    if (text === key || text === form) continue;
    // A key with no word of its own ("{{a}} – {{b}}") says nothing about a text's language.
    if (!/[A-Za-z]{2}/.test(key.replace(/\{\{\s*\w+\s*\}\}/g, ''))) continue;
    if (key.includes('{{')) patterns.push({ key, pattern: keyPattern(key) });
    else plain.add(key);
  }
  const words = new RegExp(`(^|[^\\p{L}])(${ENGLISH_WORDS.map(escape).join('|')})(?![\\p{L}])`, 'u');
  return (text: string): string | null => {
    if (own.has(text)) return null;
    if (allowed.some((a) => (typeof a === 'string' ? a === text : a.test(text)))) return null;
    if (ownPatterns.some((p) => p.test(text))) return null;
    if (plain.has(text)) return `catalogue entry "${text}"`;
    const match = patterns.find((p) => p.pattern.test(text));
    if (match) return `catalogue entry "${match.key}"`;
    const word = words.exec(text);
    if (word) return `English word "${word[2]}"`;
    return null;
  };
}
