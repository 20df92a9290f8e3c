import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileBlobStore } from '../../src/storage/file-blob-store.js';
import { blobKey } from '../../src/storage/blob-store.js';
import {
  RECORD_HEADER,
  RECORD_MAX_BYTES,
  SEAL_AFTER_MS,
  SEGMENT_HEADER,
  segmentFiles,
} from '../../src/storage/intake-journal.js';

/**
 * The intake journal keeps a stored blob's bytes durable until its own file is (intake-journal.ts).
 * A power cut is played by keeping a copy of the journal as the disk held it when the store
 * answered, losing the blob files, and starting a store on the same data directory with that copy.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-journal-'));
  dirs.push(dir);
  return dir;
}

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Stores each body; answers the keys and a copy of the journal as it stood after the last answer. */
async function storeThenSnapshot(
  dir: string,
  bodies: Buffer[],
): Promise<{ keys: string[]; journal: string }> {
  const store = new FileBlobStore(dir);
  const keys: string[] = [];
  for (const body of bodies) keys.push(await store.storeBytes(body, sha(body)));
  const journal = path.join(dir, 'journal-at-the-cut');
  fs.cpSync(path.join(dir, 'journal'), journal, { recursive: true });
  await store.close();
  return { keys, journal };
}

function cutPower(dir: string, journal: string): void {
  fs.rmSync(path.join(dir, 'journal'), { recursive: true, force: true });
  fs.renameSync(journal, path.join(dir, 'journal'));
}

describe('intake journal', () => {
  it('rebuilds at the next start every answered blob whose file the disk lost or cut short', async () => {
    const dir = dataDir();
    const bodies = [randomBytes(28_000), randomBytes(120_000), randomBytes(3_000)];
    const { keys, journal } = await storeThenSnapshot(dir, bodies);
    const file = (key: string) => path.join(dir, 'blobs', key);
    fs.rmSync(file(keys[0]!));
    fs.truncateSync(file(keys[1]!), 1000);
    cutPower(dir, journal);

    const next = new FileBlobStore(dir);
    try {
      expect(next.journalReplay).toEqual({ records: 3, restored: 2, blocked: [] });
      for (const [i, key] of keys.entries()) expect(fs.readFileSync(file(key)).equals(bodies[i]!)).toBe(true);
      // Replayed, synced and done with: the journal is empty again.
      expect(segmentFiles(path.join(dir, 'journal'))).toEqual([]);
    } finally {
      await next.close();
    }
  });

  it('rebuilds every blob of a burst stored at once (several associations share the syncs)', async () => {
    const dir = dataDir();
    const bodies = Array.from({ length: 12 }, (_, i) => randomBytes(i % 3 === 0 ? 120_000 : 28_000));
    const store = new FileBlobStore(dir);
    const keys = await Promise.all(bodies.map((body) => store.storeBytes(body, sha(body))));
    const journal = path.join(dir, 'journal-at-the-cut');
    fs.cpSync(path.join(dir, 'journal'), journal, { recursive: true });
    // Each answered blob's file is whole once its store resolves (it is written before the answer).
    for (const [i, key] of keys.entries()) {
      expect(fs.readFileSync(path.join(dir, 'blobs', key)).equals(bodies[i]!)).toBe(true);
    }
    await store.close();
    for (const key of keys) fs.rmSync(path.join(dir, 'blobs', key));
    cutPower(dir, journal);

    const next = new FileBlobStore(dir);
    try {
      expect(next.journalReplay).toEqual({ records: 12, restored: 12, blocked: [] });
      for (const [i, key] of keys.entries()) {
        expect(fs.readFileSync(path.join(dir, 'blobs', key)).equals(bodies[i]!)).toBe(true);
      }
    } finally {
      await next.close();
    }
  });

  it('leaves a blob larger than a record may be out of the journal: its own file is synced before the answer', async () => {
    const dir = dataDir();
    const bodies = [randomBytes(28_000), randomBytes(RECORD_MAX_BYTES + 1)];
    const { keys, journal } = await storeThenSnapshot(dir, bodies);
    const file = (key: string) => path.join(dir, 'blobs', key);
    expect(fs.readFileSync(file(keys[1]!)).equals(bodies[1]!)).toBe(true);
    fs.rmSync(file(keys[0]!));
    cutPower(dir, journal);

    const next = new FileBlobStore(dir);
    try {
      // Only the small one has a record; the large one never depended on the journal.
      expect(next.journalReplay).toEqual({ records: 1, restored: 1, blocked: [] });
      expect(fs.readFileSync(file(keys[0]!)).equals(bodies[0]!)).toBe(true);
    } finally {
      await next.close();
    }
  });

  it('fails a blob whose file cannot be created after its record is written, and answers the others', async () => {
    const dir = dataDir();
    const store = new FileBlobStore(dir);
    try {
      const blocked = randomBytes(3000);
      const key = sha(blocked);
      // A file where the blob's `ab/cd` directory belongs: the record is written, the create fails.
      const top = path.join(dir, 'blobs', key.slice(0, 2));
      fs.mkdirSync(top, { recursive: true });
      fs.writeFileSync(path.join(top, key.slice(2, 4)), 'not a directory');
      const others = [randomBytes(3000), randomBytes(3000)];
      const results = await Promise.allSettled([
        store.storeBytes(blocked, key),
        ...others.map((body) => store.storeBytes(body, sha(body))),
      ]);
      expect(results[0].status).toBe('rejected');
      for (const [i, result] of results.slice(1).entries()) {
        expect(result.status).toBe('fulfilled');
        const stored = (result as PromiseFulfilledResult<string>).value;
        expect(fs.readFileSync(path.join(dir, 'blobs', stored)).equals(others[i]!)).toBe(true);
      }
      // The writer goes on answering later blobs.
      const later = randomBytes(3000);
      const laterKey = await store.storeBytes(later, sha(later));
      expect(fs.readFileSync(path.join(dir, 'blobs', laterKey)).equals(later)).toBe(true);

      // The power goes: the next start replays every record, the refused one's included. Its place
      // is still blocked, so that one record is reported and left; the store opens all the same.
      const snapshot = path.join(dir, 'journal-at-the-cut');
      fs.cpSync(path.join(dir, 'journal'), snapshot, { recursive: true });
      await store.close();
      const answered = [...results.slice(1), { value: laterKey }].map(
        (result) => (result as { value: string }).value,
      );
      for (const stored of answered) fs.rmSync(path.join(dir, 'blobs', stored));
      cutPower(dir, snapshot);
      const next = new FileBlobStore(dir);
      try {
        expect(next.journalReplay).toEqual({ records: 4, restored: 3, blocked: [blobKey(key)] });
        for (const [i, stored] of answered.entries()) {
          expect(fs.readFileSync(path.join(dir, 'blobs', stored)).equals([...others, later][i]!)).toBe(true);
        }
        expect(segmentFiles(path.join(dir, 'journal'))).toEqual([]);
        const again = randomBytes(3000);
        expect(await next.storeBytes(again, sha(again))).toBe(blobKey(sha(again)));
      } finally {
        await next.close();
      }
    } finally {
      await store.close();
    }
  });

  it('stops at a torn record: what was never answered is not written', async () => {
    const dir = dataDir();
    const bodies = [randomBytes(10_000), randomBytes(10_000)];
    const { keys, journal } = await storeThenSnapshot(dir, bodies);
    for (const key of keys) fs.rmSync(path.join(dir, 'blobs', key));
    // The second record's bytes half written when the power went.
    const [segment] = segmentFiles(journal);
    const second =
      SEGMENT_HEADER + RECORD_HEADER + keys[0]!.length + 10_000 + RECORD_HEADER + keys[1]!.length;
    const fd = fs.openSync(segment!, 'r+');
    fs.writeSync(fd, Buffer.alloc(5_000), 0, 5_000, second + 5_000);
    fs.closeSync(fd);
    cutPower(dir, journal);

    const next = new FileBlobStore(dir);
    try {
      expect(next.journalReplay).toEqual({ records: 1, restored: 1, blocked: [] });
      expect(fs.readFileSync(path.join(dir, 'blobs', keys[0]!)).equals(bodies[0]!)).toBe(true);
      expect(fs.existsSync(path.join(dir, 'blobs', keys[1]!))).toBe(false);
    } finally {
      await next.close();
    }
  });

  it('after a clean close brings nothing back, not even a blob removed since', async () => {
    const dir = dataDir();
    const store = new FileBlobStore(dir);
    const body = randomBytes(20_000);
    const key = await store.storeBytes(body, sha(body));
    await store.close();
    expect(segmentFiles(path.join(dir, 'journal'))).toEqual([]);
    fs.rmSync(path.join(dir, 'blobs', key));

    const next = new FileBlobStore(dir);
    try {
      expect(next.journalReplay).toEqual({ records: 0, restored: 0, blocked: [] });
      expect(fs.existsSync(path.join(dir, 'blobs', key))).toBe(false);
    } finally {
      await next.close();
    }
  });

  it('checkpoints once writes rest and reuses the segment: only later records replay', async () => {
    const dir = dataDir();
    const store = new FileBlobStore(dir);
    const first = randomBytes(20_000);
    const later = randomBytes(20_000);
    try {
      await store.storeBytes(first, sha(first));
      // Sealed after the rest, synced, handed back; the next write starts it again from the top.
      await new Promise((resolve) => setTimeout(resolve, SEAL_AFTER_MS + 1500));
      await store.storeBytes(later, sha(later));
      const segments = segmentFiles(path.join(dir, 'journal'));
      expect(segments).toHaveLength(1);
      const snapshot = path.join(dir, 'journal-at-the-cut');
      fs.cpSync(path.join(dir, 'journal'), snapshot, { recursive: true });
      await store.close();
      cutPower(dir, snapshot);
    } catch (error) {
      await store.close();
      throw error;
    }
    const next = new FileBlobStore(dir);
    try {
      expect(next.journalReplay.records).toBe(1);
    } finally {
      await next.close();
    }
  });
});
