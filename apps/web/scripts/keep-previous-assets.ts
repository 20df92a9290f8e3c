import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Plugin } from 'vite';

/** Beside index.html: the names of the files this build wrote into `assets/` itself. */
export const BUILD_ASSETS_LIST = '.build-assets.json';
/** The precompressed forms that travel with a file (apps/web/scripts/precompress.ts). */
const SIBLINGS = ['', '.br', '.gz'];

async function namesIn(dir: string): Promise<string[]> {
  return readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
}

/** The files the build in `outDir` wrote itself; all of `assets/` for a build made before the list. */
async function ownAssetsOf(outDir: string): Promise<string[]> {
  try {
    const list = JSON.parse(await readFile(path.join(outDir, BUILD_ASSETS_LIST), 'utf8')) as unknown;
    if (Array.isArray(list)) return list.filter((name): name is string => typeof name === 'string');
  } catch {
    // No list (or an unreadable one): take what is there.
  }
  return (await namesIn(path.join(outDir, 'assets'))).filter((name) => !/\.(br|gz)$/.test(name));
}

/**
 * Copies the current build's own hashed files (with their `.br`/`.gz`) out of `outDir/assets` before
 * the next build empties it, and answers the directory holding them (null when there is no build).
 * Files the current build itself carried from the one before are left behind: one generation only.
 */
export async function setAsidePreviousAssets(outDir: string): Promise<string | null> {
  const assets = path.join(outDir, 'assets');
  const present = new Set(await namesIn(assets));
  const own = (await ownAssetsOf(outDir)).filter((name) => present.has(name) && path.basename(name) === name);
  if (own.length === 0) return null;
  const aside = await mkdtemp(path.join(tmpdir(), 'inbox-previous-assets-'));
  for (const name of own) {
    for (const suffix of SIBLINGS) {
      if (present.has(name + suffix))
        await copyFile(path.join(assets, name + suffix), path.join(aside, name + suffix));
    }
  }
  return aside;
}

/**
 * After a build has written its files: records them as this build's own, then puts back the
 * previous build's files set aside by `setAsidePreviousAssets` wherever the new build has no file of
 * that name, so a page opened before the rebuild still finds the chunks it has yet to load.
 */
export async function carryPreviousAssets(outDir: string, aside: string | null): Promise<void> {
  const assets = path.join(outDir, 'assets');
  const own = (await namesIn(assets)).filter((name) => !/\.(br|gz)$/.test(name));
  await writeFile(path.join(outDir, BUILD_ASSETS_LIST), `${JSON.stringify(own.sort())}\n`);
  if (aside === null) return;
  try {
    const taken = new Set(own);
    for (const name of await namesIn(aside)) {
      const base = name.replace(/\.(br|gz)$/, '');
      if (!taken.has(base)) await copyFile(path.join(aside, name), path.join(assets, name));
    }
  } finally {
    await rm(aside, { recursive: true, force: true });
  }
}

/**
 * Keeps the previous build's hashed assets for one more build: Vite empties `outDir` before writing,
 * which would leave the tabs still open on the previous build with chunks that 404. Placed before
 * `precompress()`, which then finds the carried files already compressed.
 */
export function keepPreviousAssets(): Plugin {
  let outDir = 'dist';
  let aside: string | null = null;
  return {
    name: 'imaging-inbox:keep-previous-assets',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // buildStart runs before Vite empties outDir (at renderStart); writeBundle after it has written.
    async buildStart() {
      aside = await setAsidePreviousAssets(outDir);
    },
    async writeBundle() {
      await carryPreviousAssets(outDir, aside);
      aside = null;
    },
  };
}
