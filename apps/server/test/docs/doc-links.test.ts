/**
 * The design map and the docs stay navigable: every relative link of the repository's Markdown
 * (README, docs/, the folders' READMEs) names a file that exists, and the design map's decision
 * index lists every decision record.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const SKIPPED = new Set(['node_modules', 'dist', '.git', 'data', 'screenshots']);

function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name) || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...markdownFiles(full));
    else if (entry.name.endsWith('.md')) out.push(full);
  }
  return out;
}

/** The relative targets of a Markdown text's `[text](target)` links, without their #fragment. */
export function relativeLinks(markdown: string): string[] {
  const targets: string[] = [];
  for (const [, target] of markdown.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target!) || target!.startsWith('#')) continue;
    targets.push(target!.replace(/#.*$/, ''));
  }
  return targets;
}

describe('the Markdown documentation', () => {
  const files = ['README.md', 'docs', 'apps', 'packages', 'e2e', 'deploy']
    .map((p) => path.join(ROOT, p))
    .filter((p) => fs.existsSync(p))
    .flatMap((p) => (fs.statSync(p).isDirectory() ? markdownFiles(p) : [p]));

  it('links only to files that exist', () => {
    const broken = files.flatMap((file) =>
      relativeLinks(fs.readFileSync(file, 'utf8'))
        .filter((target) => !fs.existsSync(path.resolve(path.dirname(file), decodeURI(target))))
        .map((target) => `${path.relative(ROOT, file)} → ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it("lists every decision record in the design map's index", () => {
    const map = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    const records = fs.readdirSync(path.join(ROOT, 'docs/decisions')).filter((f) => /^\d{4}-.*\.md$/.test(f));
    expect(records.filter((f) => !map.includes(`](decisions/${f})`))).toEqual([]);
  });

  it('reads relative links and leaves addresses and fragments alone', () => {
    expect(
      relativeLinks('[a](deploy.md) [b](../x/README.md#part) [c](https://example.org) [d](#here)'),
    ).toEqual(['deploy.md', '../x/README.md']);
  });
});
