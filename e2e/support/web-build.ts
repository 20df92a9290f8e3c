import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  BUILD_ASSETS_LIST,
  carryPreviousAssets,
  setAsidePreviousAssets,
} from '../../apps/web/scripts/keep-previous-assets';
import { REPO_ROOT } from './server';

/** The web app `npm run build` made. */
export const WEB_DIST = path.join(REPO_ROOT, 'apps/web/dist');

/** The hashed files a build wrote itself (its list beside index.html; all of them without one). */
export async function ownAssets(build: string): Promise<string[]> {
  try {
    return JSON.parse(await readFile(path.join(build, BUILD_ASSETS_LIST), 'utf8')) as string[];
  } catch {
    return (await readdir(path.join(build, 'assets'))).filter((name) => !/\.(br|gz)$/.test(name));
  }
}

/** A copy of the built web app (its own files only) in a fresh directory. */
export async function copyBuild(from: string = WEB_DIST): Promise<string> {
  const to = await mkdtemp(path.join(tmpdir(), 'inbox-web-build-'));
  const own = new Set(await ownAssets(from));
  await cp(from, to, {
    recursive: true,
    filter: (source) => {
      const relative = path.relative(from, source).split(path.sep);
      return (
        relative[0] !== 'assets' || relative.length === 1 || own.has(relative[1]!.replace(/\.(br|gz)$/, ''))
      );
    },
  });
  return to;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The next release of `build` as far as a browser can tell: every hashed file under a new name (a
 * changed hash), with every reference to it rewritten, as a rebuild of changed code would leave it.
 * Plain files only (no `.br`/`.gz`): the server falls back to them.
 */
export async function rehashedBuild(build: string): Promise<{ dir: string; renamed: Map<string, string> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'inbox-web-build-'));
  const own = await ownAssets(build);
  const renamed = new Map(own.map((name) => [name, name.replace(/(\.[a-z]+)$/, 'n2$1')]));
  const names = new RegExp(
    [...renamed.keys()]
      .sort((a, b) => b.length - a.length)
      .map(escape)
      .join('|'),
    'g',
  );
  const rewrite = (text: string) => text.replace(names, (name) => renamed.get(name) ?? name);
  const textFile = /\.(js|css|html|json|svg|map)$/;
  await mkdir(path.join(dir, 'assets'));
  for (const [from, to] of renamed) {
    const body = await readFile(path.join(build, 'assets', from));
    await writeFile(path.join(dir, 'assets', to), textFile.test(from) ? rewrite(body.toString()) : body);
  }
  for (const page of ['index.html', 'viewer/index.html']) {
    await mkdir(path.dirname(path.join(dir, page)), { recursive: true });
    await writeFile(path.join(dir, page), rewrite(await readFile(path.join(build, page), 'utf8')));
  }
  return { dir, renamed };
}

/**
 * Puts `build` where the server serves `served` from, the way `npm run build` replaces apps/web/dist:
 * the output directory emptied and written anew, with the previous build's files kept by the build's
 * own steps (apps/web/scripts/keep-previous-assets.ts) unless `keepPrevious` is false (an upgrade
 * that replaces a container image, which starts from an empty directory).
 */
export async function installBuild(served: string, build: string, keepPrevious: boolean): Promise<void> {
  const aside = keepPrevious ? await setAsidePreviousAssets(served) : null;
  for (const entry of await readdir(served))
    await rm(path.join(served, entry), { recursive: true, force: true });
  await cp(build, served, {
    recursive: true,
    filter: (source) => path.basename(source) !== BUILD_ASSETS_LIST,
  });
  await carryPreviousAssets(served, aside);
}
