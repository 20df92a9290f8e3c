import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatasetSink, SHARED_ABOVE, STREAM_ABOVE } from '../../src/dimse/dataset-sink.js';
import { FileBlobStore } from '../../src/storage/file-blob-store.js';

let dir: string;
let blobs: FileBlobStore;
const flow = { pause: () => undefined, resume: () => undefined };

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-sink-'));
  blobs = new FileBlobStore(dir);
});
afterAll(async () => {
  await blobs.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Feeds `body` behind `header` in slices of `sliceSize` (as socket reads would) and ends the sink. */
async function receive(header: Buffer, body: Buffer, sliceSize: number, sizeHint = 0) {
  const sink = new DatasetSink(blobs, header, flow, sizeHint);
  for (let offset = 0; offset < body.length; offset += sliceSize) {
    // A fresh buffer per slice, reused afterwards by nobody: like the socket's.
    sink.write(Buffer.from(body.subarray(offset, offset + sliceSize)));
  }
  return sink.end();
}

function sha256(...parts: Buffer[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
}

describe('DatasetSink', () => {
  const header = randomBytes(300);

  it.each([
    ['a small dataset, gathered at the end', 20_000, 8_000, 0],
    ['a CT-size dataset without a size hint (its memory grows)', 525_000, 65_536, 0],
    ['a CT-size dataset sized by its predecessor', 525_000, 65_536, 525_300],
    ['a dataset larger than the hint said', 900_000, 16_384, 300_000],
    ['a dataset just past the shared-memory threshold, in one slice', SHARED_ABOVE + 1, SHARED_ABOVE + 1, 0],
  ])('keeps %s byte for byte, with its SHA-256', async (_, size, sliceSize, hint) => {
    const body = randomBytes(size);
    const received = await receive(header, body, sliceSize, hint);
    expect(received.kind).toBe('memory');
    if (received.kind !== 'memory') return;
    expect(received.bytes.equals(Buffer.concat([header, body]))).toBe(true);
    expect(await received.sha256).toBe(sha256(header, body));
    received.release();
  });

  it('gives correct digests to datasets received one after another in recycled memory', async () => {
    const bodies = [randomBytes(525_000), randomBytes(525_000), randomBytes(400_000)];
    for (const body of bodies) {
      const received = await receive(header, body, 65_536, 525_300);
      if (received.kind !== 'memory') throw new Error('expected memory');
      expect(await received.sha256).toBe(sha256(header, body));
      expect(received.bytes.equals(Buffer.concat([header, body]))).toBe(true);
      received.release();
    }
  });

  it('grows the memory of a dataset larger than its hint no further than STREAM_ABOVE', async () => {
    // Sized for 4 MB by its predecessor, it outgrows that: doubling would ask for more than 8 MB.
    const body = randomBytes(5_000_000);
    const received = await receive(header, body, 65_536, 4 * 1024 * 1024);
    if (received.kind !== 'memory') throw new Error('expected memory');
    expect(received.bytes.buffer.byteLength).toBeLessThanOrEqual(STREAM_ABOVE);
    expect(await received.sha256).toBe(sha256(header, body));
    received.release();
  });

  it('hands a dataset that outgrows memory to a temp file, with its SHA-256', async () => {
    const body = randomBytes(STREAM_ABOVE + 100_000);
    const received = await receive(header, body, 65_536, 525_300);
    expect(received.kind).toBe('file');
    if (received.kind !== 'file') return;
    expect(received.temp.sha256).toBe(sha256(header, body));
    expect(fs.readFileSync(received.temp.path).equals(Buffer.concat([header, body]))).toBe(true);
    await blobs.discard(received.temp);
  });

  it('a dataset dropped mid-way leaves the hashing thread fit for the next one', async () => {
    const dropped = new DatasetSink(blobs, header, flow, 0);
    dropped.write(randomBytes(300_000));
    dropped.destroy();
    const body = randomBytes(525_000);
    const received = await receive(header, body, 65_536, 0);
    if (received.kind !== 'memory') throw new Error('expected memory');
    expect(await received.sha256).toBe(sha256(header, body));
  });

  it('a dataset whose writer thread stopped meanwhile fails instead of waiting for ever', async () => {
    const own = new FileBlobStore(fs.mkdtempSync(path.join(dir, 'stopped-')));
    const sink = new DatasetSink(own, header, flow, 0);
    sink.write(randomBytes(300_000));
    await own.close();
    const received = await sink.end();
    if (received.kind !== 'memory') throw new Error('expected memory');
    await expect(received.sha256).rejects.toThrow('writer thread gone');
  });
});
