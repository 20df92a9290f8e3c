import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DIRECTORIES_MARKER } from '../../src/storage/blob-directories.js';
import { FileBlobStore } from '../../src/storage/file-blob-store.js';
import { fileSyncPersistsItsName } from '../../src/storage/new-name-durability.js';

/** A young file store makes its `ab/cd` directories ahead of its files (blob-directories.ts). */
const dirs: string[] = [];
const stores: FileBlobStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function storeIn(dir: string, directoriesAhead: boolean): FileBlobStore {
  const store = new FileBlobStore(dir, undefined, { directoriesAhead });
  stores.push(store);
  return store;
}

function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-blob-dirs-'));
  dirs.push(dir);
  return dir;
}

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The two-level directories under the blob root. */
function blobDirectories(root: string): number {
  return fs
    .readdirSync(root)
    .filter((name) => /^[0-9a-f]{2}$/.test(name))
    .reduce((sum, top) => sum + fs.readdirSync(path.join(root, top)).length, 0);
}

describe('blob directories made ahead', () => {
  // Only where a new file's sync makes its directories durable; elsewhere the writer keeps doing it.
  const namesDurable = fileSyncPersistsItsName(os.tmpdir());

  it.runIf(namesDurable)(
    'makes all 65,536 once, while blobs are stored meanwhile, and not again',
    async () => {
      const dir = dataDir();
      const root = path.join(dir, 'blobs');
      const store = storeIn(dir, true);
      const body = randomBytes(4000);
      const key = await store.storeBytes(body, sha(body));
      expect(fs.readFileSync(path.join(root, key))).toEqual(body);
      await store.directoriesMade();
      expect(blobDirectories(root)).toBe(65_536);
      expect(fs.existsSync(path.join(root, DIRECTORIES_MARKER))).toBe(true);
      // The blob stored meanwhile is intact, and the marker is not taken for a blob by the recovery scan.
      expect(fs.readFileSync(path.join(root, key))).toEqual(body);
      expect((await store.writtenSince(0)).keys).toEqual([key]);
      await store.close();

      // The next start finds the marker: no second pass (a directory removed by hand stays removed
      // until a blob needs it, and the writer then makes it).
      fs.rmSync(path.join(root, '00', '00'), { recursive: true });
      const next = storeIn(dir, true);
      await next.directoriesMade();
      expect(fs.existsSync(path.join(root, '00', '00'))).toBe(false);
    },
  );

  it('makes none unless asked (each directory then comes with its first blob)', async () => {
    const dir = dataDir();
    const store = storeIn(dir, false);
    const body = randomBytes(4000);
    await store.storeBytes(body, sha(body));
    await store.directoriesMade();
    expect(blobDirectories(path.join(dir, 'blobs'))).toBe(1);
    expect(fs.existsSync(path.join(dir, 'blobs', DIRECTORIES_MARKER))).toBe(false);
  });
});
