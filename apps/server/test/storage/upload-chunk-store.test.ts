import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UploadChunkStore } from '../../src/storage/upload-chunk-store.js';

const DAY = 24 * 3600_000;
const idHash = (c: string) => c.repeat(64);
const token = (c: string) => c.repeat(32);

describe('UploadChunkStore.sweepStale', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  const store = () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'imaging-inbox-chunks-'));
    dirs.push(dataDir);
    return new UploadChunkStore(dataDir);
  };
  const write = (file: string, ageMs: number) => {
    fs.writeFileSync(file, 'bytes');
    const when = new Date(Date.now() - ageMs);
    fs.utimesSync(file, when, when);
  };

  it('removes stale staging files, keeps fresh ones and every session file, and names the stale session files', async () => {
    const chunks = store();
    const staleStaged = chunks.stagedPathOf(idHash('a'), token('1'));
    const freshStaged = chunks.stagedPathOf(idHash('b'), token('2'));
    const staleSession = chunks.pathOf(idHash('c'));
    const freshSession = chunks.pathOf(idHash('d'));
    const stranger = path.join(chunks.dir, 'notes.txt');
    write(staleStaged, 3 * DAY);
    write(freshStaged, 0);
    write(staleSession, 3 * DAY);
    write(freshSession, 0);
    write(stranger, 3 * DAY);

    const swept = await chunks.sweepStale(Date.now() - DAY);

    expect(swept).toEqual({ staleIds: [idHash('c')], stagedRemoved: 1 });
    // Whether a stale session file is an orphan is the sessions table's to say: it stays here.
    expect(fs.readdirSync(chunks.dir).sort()).toEqual(
      [freshStaged, staleSession, freshSession, stranger].map((f) => path.basename(f)).sort(),
    );
  });

  it('finds nothing in an empty or a missing directory', async () => {
    const chunks = store();
    expect(await chunks.sweepStale(Date.now())).toEqual({ staleIds: [], stagedRemoved: 0 });
    fs.rmSync(chunks.dir, { recursive: true });
    expect(await chunks.sweepStale(Date.now())).toEqual({ staleIds: [], stagedRemoved: 0 });
  });
});
