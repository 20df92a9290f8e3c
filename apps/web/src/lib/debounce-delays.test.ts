import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { WEB_SRC } from '../test/translation-keys';

/** The spec's two delays (SPEC.md section 9): one constant each, never a number written in place. */
const SPEC_DELAYS = new Set(['DEBOUNCE_MS', 'LONG_DEBOUNCE_MS']);

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** `file: delay` of every useDebouncedValue call, its delay as written. */
function debouncedDelays(): string[] {
  const found: string[] = [];
  for (const file of sources(WEB_SRC)) {
    const text = fs.readFileSync(file, 'utf8');
    if (!text.includes('useDebouncedValue(')) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (
        ts.isCallExpression(node) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === 'useDebouncedValue'
      ) {
        found.push(`${path.relative(WEB_SRC, file)}: ${node.arguments[1]?.getText(source) ?? ''}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found.sort();
}

describe('debounce delays', () => {
  it('debounces every text input with one of the spec constants', () => {
    const delays = debouncedDelays();
    expect(delays.filter((d) => !SPEC_DELAYS.has(d.split(': ')[1]!))).toEqual([]);
  });

  it('gives the advanced search the 250 ms constant, tag suggestions the long one, the admin searches the standard one', () => {
    expect(debouncedDelays()).toEqual([
      'features/admin/components/AuditLogPage.tsx: DEBOUNCE_MS',
      'features/admin/components/UsersAdminPage.tsx: DEBOUNCE_MS',
      'features/search/components/AdvancedSearchPanel.tsx: DEBOUNCE_MS',
      'features/search/components/TagsInput.tsx: LONG_DEBOUNCE_MS',
    ]);
  });
});
