import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILD_ASSETS_LIST, carryPreviousAssets, setAsidePreviousAssets } from './keep-previous-assets';

let outDir = '';

/** What Vite leaves after a build: `files` under assets/, each with .br and .gz when `compressed`. */
function writeBuild(files: string[], compressed = true): void {
  // Vite empties outDir before writing.
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(path.join(outDir, 'assets'), { recursive: true });
  writeFileSync(path.join(outDir, 'index.html'), files.join(','));
  for (const name of files) {
    writeFileSync(path.join(outDir, 'assets', name), `code of ${name}`);
    if (!compressed) continue;
    writeFileSync(path.join(outDir, 'assets', `${name}.br`), `br of ${name}`);
    writeFileSync(path.join(outDir, 'assets', `${name}.gz`), `gz of ${name}`);
  }
}

/** One build as the plugin runs it: set aside, Vite writes, carry forward. */
async function build(files: string[]): Promise<void> {
  const aside = await setAsidePreviousAssets(outDir);
  writeBuild(files, false);
  await carryPreviousAssets(outDir, aside);
}

const assets = () => readdirSync(path.join(outDir, 'assets')).sort();

describe('keepPreviousAssets', () => {
  afterEach(() => rmSync(outDir, { recursive: true, force: true }));

  it("keeps the previous build's hashed files, compressed forms included, beside the new ones", async () => {
    outDir = mkdtempSync(path.join(tmpdir(), 'inbox-web-build-'));
    writeBuild(['main-AAAA.js', 'Page-AAAA.js', 'shared-SAME.js']);
    await build(['main-BBBB.js', 'Page-BBBB.js', 'shared-SAME.js']);
    expect(assets()).toEqual([
      'Page-AAAA.js',
      'Page-AAAA.js.br',
      'Page-AAAA.js.gz',
      'Page-BBBB.js',
      'main-AAAA.js',
      'main-AAAA.js.br',
      'main-AAAA.js.gz',
      'main-BBBB.js',
      'shared-SAME.js',
    ]);
    // A file both builds have is the new build's own (its .br/.gz come from precompress next).
    expect(readFileSync(path.join(outDir, 'assets', 'Page-AAAA.js.br'), 'utf8')).toBe('br of Page-AAAA.js');
    expect(JSON.parse(readFileSync(path.join(outDir, BUILD_ASSETS_LIST), 'utf8'))).toEqual([
      'Page-BBBB.js',
      'main-BBBB.js',
      'shared-SAME.js',
    ]);
  });

  it('keeps one generation only: the build after next drops the first build', async () => {
    outDir = mkdtempSync(path.join(tmpdir(), 'inbox-web-build-'));
    await build(['main-AAAA.js']);
    await build(['main-BBBB.js']);
    await build(['main-CCCC.js']);
    expect(assets()).toEqual(['main-BBBB.js', 'main-CCCC.js']);
  });

  it('builds the first time with nothing to keep', async () => {
    outDir = path.join(mkdtempSync(path.join(tmpdir(), 'inbox-web-build-')), 'dist');
    await build(['main-AAAA.js']);
    expect(assets()).toEqual(['main-AAAA.js']);
  });
});
