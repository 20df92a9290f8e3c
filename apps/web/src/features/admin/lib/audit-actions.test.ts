import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WEB_SRC } from '../../../test/translation-keys';
import fr from '../../../locales/fr';
import es from '../../../locales/es';
import { ACTION_LABELS } from './audit-entry';

const SERVER_SRC = path.resolve(WEB_SRC, '../../server/src');

/** Every action code the server writes as a literal on an `action:` line of its sources. */
function serverActionCodes(): Set<string> {
  const codes = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        // Each code on an `action:` line, chosen ones too (`action: ok ? 'A' : 'B'`).
        for (const line of readFileSync(full, 'utf8')
          .split('\n')
          .filter((l) => /\baction: /.test(l)))
          for (const m of line.matchAll(/(?:action: |\? |: )'([A-Z][A-Z0-9_]*)'/g)) codes.add(m[1]!);
      }
    }
  };
  walk(SERVER_SRC);
  return codes;
}

/**
 * The Audit Log page names every action the server records in words, in each language: a code the
 * server gained without a label would show as its raw words, untranslated.
 */
describe('audit action names', () => {
  const codes = serverActionCodes();

  it('finds the server’s action codes', () => {
    expect(codes.size).toBeGreaterThan(30);
    expect(codes.has('NOMINATE')).toBe(true);
  });

  it('has a label for every action the server records', () => {
    expect([...codes].filter((code) => !ACTION_LABELS[code])).toEqual([]);
  });

  it('has each label in French and Spanish', () => {
    const labels = Object.values(ACTION_LABELS);
    expect(labels.filter((label) => !fr[label])).toEqual([]);
    expect(labels.filter((label) => !es[label])).toEqual([]);
  });
});
