import { describe, expect, it } from 'vitest';
import { CONTRACT_SRC, WEB_SRC, scanSources } from '../test/translation-keys';
import { COMPUTED_CALLS, COMPUTED_KEYS, CONTRACT_MESSAGE_TABLES, LITERAL_LABELS } from './computed-keys';
import fr from './fr';
import es from './es';
import type { Messages } from '../lib/i18n';

const LOCALES: Record<string, { messages: Messages; plurals: Intl.PluralRules }> = {
  fr: { messages: fr, plurals: new Intl.PluralRules('fr') },
  es: { messages: es, plurals: new Intl.PluralRules('es') },
};

const scan = scanSources([WEB_SRC, CONTRACT_SRC]);
const pluralKeys = new Set(
  [...scan.keys.filter((k) => k.plural).map((k) => k.key), ...COMPUTED_KEYS].filter(
    (key) => key.includes('{{count}}') || scan.keys.some((k) => k.key === key && k.plural),
  ),
);
const contractKeys = CONTRACT_MESSAGE_TABLES.flatMap((table) => Object.values(table));
const allKeys = new Set(
  [...scan.keys.map((k) => k.key), ...COMPUTED_KEYS, ...contractKeys].filter((key) => key !== ''),
);

/** The forms a language needs for a key: `_one` and `_other` for plurals (`_many` may fall back). */
function neededForms(key: string): string[] {
  return pluralKeys.has(key) || key.includes('{{count}}') ? [`${key}_one`, `${key}_other`] : [key];
}

function placeholders(text: string): string {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)]
    .map((m) => m[1])
    .sort()
    .join(',');
}

describe('translations', () => {
  it('finds the keys of the sources', () => {
    expect(allKeys.size).toBeGreaterThan(500);
    expect(allKeys.has('Sign in')).toBe(true);
  });

  for (const [language, { messages }] of Object.entries(LOCALES)) {
    it(`${language} translates every key, plural keys in each form its plural rules need`, () => {
      const missing = [...allKeys].flatMap(neededForms).filter((form) => !messages[form]?.trim());
      expect(missing, `keys missing in ${language}`).toEqual([]);
    });

    it(`${language} keeps the {{values}} of each English text`, () => {
      const wrong = Object.entries(messages).filter(([form, text]) => {
        const key = form.replace(/_(zero|one|two|few|many|other)$/, '');
        // A singular may name the one thing instead of counting it ("Ce document").
        const expected = placeholders(key)
          .split(',')
          .filter((p) => !(form.endsWith('_one') && p === 'count'))
          .join(',');
        const got = placeholders(text)
          .split(',')
          .filter((p) => !(form.endsWith('_one') && p === 'count'))
          .join(',');
        return expected !== got;
      });
      expect(wrong.map(([form]) => form)).toEqual([]);
    });
  }

  it('every plural category the languages use falls back to a translated form', () => {
    for (const { plurals } of Object.values(LOCALES)) {
      const categories = plurals.resolvedOptions().pluralCategories;
      expect(categories).toContain('one');
      expect(categories).toContain('other');
      // `many` (a million files) and any other category read like `other` when a table has no form.
      expect(categories.every((c) => ['one', 'many', 'other'].includes(c))).toBe(true);
    }
  });

  it('calls t() with a literal key, or from a listed call site', () => {
    const unlisted = scan.computedCalls.filter((call) => !COMPUTED_CALLS.includes(call));
    expect(unlisted, 'add these to COMPUTED_CALLS with their texts in COMPUTED_KEYS').toEqual([]);
  });

  it('lists no computed key that the sources no longer contain', () => {
    expect(COMPUTED_KEYS.filter((key) => !scan.literals.has(key))).toEqual([]);
  });

  it('shows no JSX text or label attribute in English outside t()', () => {
    const bare = scan.untranslated.filter((text) => !LITERAL_LABELS.includes(text));
    expect(bare).toEqual([]);
  });
});
