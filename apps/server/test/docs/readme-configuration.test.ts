/**
 * The README's configuration table is the administrator's list of what the server reads from its
 * environment: every variable of the config schema has a row, and every row names a variable of
 * the schema (a renamed or removed one would otherwise stay documented).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../../src/config.js';

const README = path.resolve(import.meta.dirname, '../../../../README.md');

/** The variables named in the first cell of each row of the README's "Configuration" table. */
export function documentedVariables(readme: string): string[] {
  const start = readme.indexOf('\n## Configuration');
  if (start < 0) throw new Error('README.md has no "## Configuration" section');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const names: string[] = [];
  for (const line of section.split('\n')) {
    const firstCell = /^\|([^|]*)\|/.exec(line)?.[1];
    if (!firstCell) continue;
    for (const [, name] of firstCell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.push(name!);
  }
  return names;
}

describe("the README's configuration table", () => {
  const documented = documentedVariables(fs.readFileSync(README, 'utf8'));

  it('lists every variable of the config schema', () => {
    expect(CONFIG_VARIABLES.filter((v) => !documented.includes(v))).toEqual([]);
  });

  it('lists only variables of the config schema, each once', () => {
    expect(documented.filter((v) => !CONFIG_VARIABLES.includes(v))).toEqual([]);
    expect(documented.filter((v, i) => documented.indexOf(v) !== i)).toEqual([]);
  });

  it('reads the variables of a table row, several to a cell, and nothing outside the section', () => {
    const readme = [
      '# x',
      '| `NOT_HERE` | a |',
      '## Configuration',
      '| variable | default |',
      '|---|---|',
      '| `PORT` | `8080` |',
      '| `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` | unset, `LOWER` |',
      '## Next',
      '| `NOR_HERE` | b |',
    ].join('\n');
    expect(documentedVariables(readme)).toEqual(['PORT', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']);
  });
});
