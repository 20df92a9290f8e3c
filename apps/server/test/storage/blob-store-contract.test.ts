import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStore } from '../../src/storage/blob-store.js';
import { BodyTooLargeError, blobKey } from '../../src/storage/blob-store.js';
import { FileBlobStore } from '../../src/storage/file-blob-store.js';
import { S3BlobStore } from '../../src/storage/s3-blob-store.js';
import type { TestS3 } from '../support/s3-server.js';
import { startTestS3 } from '../support/s3-server.js';

/** What every blob store promises (blob-store.ts), run against the file store and a real s3rver. */
interface Subject {
  blobs: BlobStore;
  stop(): Promise<void>;
}

const stores: Record<string, () => Promise<Subject>> = {
  file: () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-blobs-'));
    const blobs = new FileBlobStore(dataDir);
    return Promise.resolve({
      blobs,
      async stop() {
        await blobs.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    });
  },
  s3: async () => {
    const s3: TestS3 = await startTestS3();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-blobs-'));
    const blobs = new S3BlobStore(dataDir, s3.location);
    return {
      blobs,
      async stop() {
        await blobs.close();
        await s3.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  },
};

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

/** A body arriving in uneven chunks, as a request body does. */
function streamOf(bytes: Buffer): Readable {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += 65_537) chunks.push(bytes.subarray(at, at + 65_537));
  return Readable.from(chunks);
}

describe.each(Object.keys(stores))('blob store contract: %s', (kind) => {
  let subject: Subject;
  let blobs: BlobStore;
  beforeAll(async () => {
    subject = await stores[kind]!();
    blobs = subject.blobs;
  });
  afterAll(() => subject?.stop());

  it('is ready to be written', async () => {
    await expect(blobs.check()).resolves.toBeUndefined();
  });

  it('stores a streamed body durably under its content key and gives it back whole, streamed and by range', async () => {
    const body = randomBytes(3 * 1024 * 1024 + 123);
    const since = Date.now();
    const temp = await blobs.writeTemp(streamOf(body));
    expect(temp).toMatchObject({ sha256: sha(body), size: body.length });
    const key = await blobs.commit(temp);
    expect(key).toBe(blobKey(sha(body)));
    expect(fs.existsSync(temp.path)).toBe(false);

    expect(await blobs.exists(key)).toBe(true);
    expect((await blobs.stat(key))?.size).toBe(body.length);
    expect((await blobs.read(key)).equals(body)).toBe(true);
    expect((await collect(blobs.readStream(key))).equals(body)).toBe(true);
    const range = { start: 1_000_001, end: 2_500_000 };
    expect(
      (await collect(blobs.readStream(key, range))).equals(body.subarray(range.start, range.end + 1)),
    ).toBe(true);

    const handle = await blobs.open(key);
    try {
      expect(handle.size).toBe(body.length);
      const buffer = Buffer.alloc(4096);
      expect(await handle.read(buffer, 10, 1000, 77_777)).toBe(1000);
      expect(buffer.subarray(10, 1010).equals(body.subarray(77_777, 78_777))).toBe(true);
      // Small reads walking the blob (a video's item headers), some across a read-ahead block's end.
      for (let position = 0; position < 700_000; position += 40_957) {
        const piece = Buffer.alloc(8_000);
        expect(await handle.read(piece, 0, piece.length, position)).toBe(piece.length);
        expect(piece.equals(body.subarray(position, position + piece.length))).toBe(true);
      }
      // A read past the end answers only what is there.
      expect(await handle.read(buffer, 0, 4096, body.length - 100)).toBe(100);
      expect(buffer.subarray(0, 100).equals(body.subarray(body.length - 100))).toBe(true);
    } finally {
      await handle.close();
    }

    expect((await blobs.writtenSince(since)).keys).toContain(key);
    expect((await blobs.writtenSince(Date.now() + 60_000)).keys).not.toContain(key);
  });

  it('stores a body larger than one upload part', async () => {
    const body = randomBytes(17 * 1024 * 1024 + 5);
    const key = await blobs.commit(await blobs.writeTemp(streamOf(body)));
    expect((await blobs.read(key)).equals(body)).toBe(true);
  });

  it('keeps attachments apart from DICOM blobs of the same content', async () => {
    const body = randomBytes(2048);
    const dcm = await blobs.commit(await blobs.writeTemp(body));
    const att = await blobs.commit(await blobs.writeTemp(body), { suffix: '.att' });
    expect(att).not.toBe(dcm);
    expect(att.endsWith('.att')).toBe(true);
    await blobs.delete(dcm);
    expect(await blobs.exists(att)).toBe(true);
    expect(await blobs.exists(dcm)).toBe(false);
  });

  it('takes identical concurrent writes harmlessly: one blob, intact', async () => {
    const body = randomBytes(600 * 1024);
    const keys = await Promise.all([
      ...Array.from({ length: 6 }, async () => blobs.commit(await blobs.writeTemp(streamOf(body)))),
      ...Array.from({ length: 6 }, () => blobs.storeBytes(body, sha(body))),
    ]);
    expect(new Set(keys)).toEqual(new Set([blobKey(sha(body))]));
    expect((await blobs.read(keys[0]!)).equals(body)).toBe(true);
  });

  it('stores bytes hashed on a writer thread as they land in shared memory', async () => {
    const body = randomBytes(300 * 1024);
    const memory = new SharedArrayBuffer(body.length);
    new Uint8Array(memory).set(body);
    const digest = blobs.startDigest();
    digest.advance(memory, 100 * 1024);
    const { sha256, stored } = blobs.storeDigested(digest, memory, body.length);
    expect(await sha256).toBe(sha(body));
    const key = await stored;
    expect((await blobs.read(key)).equals(body)).toBe(true);
  });

  it('deletes, and a missing blob reads as a missing file', async () => {
    const body = randomBytes(1000);
    const key = await blobs.storeBytes(body, sha(body));
    await blobs.delete(key);
    expect(await blobs.exists(key)).toBe(false);
    expect(await blobs.stat(key)).toBeUndefined();
    await expect(blobs.read(key)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(blobs.open(key)).rejects.toMatchObject({ code: 'ENOENT' });
    // Deleting again is not an error.
    await blobs.delete(key);
  });

  it('refuses a body past its limit and leaves nothing staged', async () => {
    await expect(blobs.writeTemp(streamOf(randomBytes(200_000)), 100_000)).rejects.toBeInstanceOf(
      BodyTooLargeError,
    );
    expect((await blobs.clearStaging()).files).toBe(0);
  });

  it('leaves nothing staged once a body cut off at its start or mid-way has been refused', async () => {
    // A body that fails before its temp file's open has finished, and one that fails after some
    // bytes were written: each rejection comes only after its temp file is gone, which is what
    // lets STOW-RS answer a cut request knowing nothing is left.
    for (let round = 0; round < 50; round += 1) {
      const early = new PassThrough();
      early.write(randomBytes(1000));
      setImmediate(() => early.destroy(new Error('cut')));
      await expect(blobs.writeTemp(early)).rejects.toThrow('cut');
      let sent = 0;
      const late = new Readable({
        read() {
          if ((sent += 1) > 3) late.destroy(new Error('cut'));
          else late.push(randomBytes(64 * 1024));
        },
      });
      await expect(blobs.writeTemp(late)).rejects.toThrow('cut');
      expect((await blobs.clearStaging()).files).toBe(0);
    }
  });
});
