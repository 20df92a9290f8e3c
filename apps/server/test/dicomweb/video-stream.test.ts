import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { locateVideoStream, parseRange } from '../../src/dicomweb/video-stream.js';
import { FileBlobStore } from '../../src/storage/file-blob-store.js';

describe('parseRange', () => {
  it('answers one range, the whole body for what it does not understand, and refuses what lies outside', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual([0, 99]);
    expect(parseRange('bytes=900-', 1000)).toEqual([900, 999]);
    expect(parseRange('bytes=-100', 1000)).toEqual([900, 999]);
    expect(parseRange('bytes=990-2000', 1000)).toEqual([990, 999]);
    // Not a single byte range (several ranges, another unit, nonsense): the whole body, as RFC 9110 allows.
    expect(parseRange('bytes=0-1,5-9', 1000)).toBeNull();
    expect(parseRange('items=0-1', 1000)).toBeNull();
    expect(parseRange('bytes=-', 1000)).toBeNull();
    expect(parseRange(undefined, 1000)).toBeNull();
    expect(parseRange('bytes=5-2', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 1000)).toBe('unsatisfiable');
  });
});

describe('locateVideoStream', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-video-stream-'));
  const dir = path.join(dataDir, 'blobs');
  const blobs = new FileBlobStore(dataDir, dir);
  afterAll(async () => {
    await blobs.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** A Part-10-shaped file whose Pixel Data holds an empty offset table and one MP4 fragment. */
  function storedVideo(name: string): { file: string; mp4: Buffer } {
    const ftyp = Buffer.alloc(16);
    ftyp.writeUInt32BE(16, 0);
    ftyp.write('ftypisom', 4, 'latin1');
    const mdat = Buffer.alloc(24, 0x11);
    mdat.writeUInt32BE(24, 0);
    mdat.write('mdat', 4, 'latin1');
    const mp4 = Buffer.concat([ftyp, mdat]);
    const item = (length: number) => {
      const header = Buffer.alloc(8);
      header.writeUInt16LE(0xfffe, 0);
      header.writeUInt16LE(0xe000, 2);
      header.writeUInt32LE(length, 4);
      return header;
    };
    const delimiter = Buffer.from([0xfe, 0xff, 0xdd, 0xe0, 0, 0, 0, 0]);
    const pixelData = Buffer.from([0xe0, 0x7f, 0x10, 0x00, 0x4f, 0x42, 0, 0, 0xff, 0xff, 0xff, 0xff]);
    const preamble = Buffer.concat([Buffer.alloc(128), Buffer.from('DICM', 'latin1')]);
    const file = path.join(dir, name);
    fs.writeFileSync(file, Buffer.concat([preamble, pixelData, item(0), item(mp4.length), mp4, delimiter]));
    return { file, mp4 };
  }

  it('finds the MP4 fragment, and remembers it for the next range of the same stored file', async () => {
    const { file, mp4 } = storedVideo('a.dcm');
    const stream = await locateVideoStream(blobs, 'a.dcm');
    expect(stream).toMatchObject({ mp4: true, size: mp4.length });
    const bytes = fs.readFileSync(file);
    const segment = stream!.segments[0]!;
    expect(bytes.subarray(segment.offset, segment.offset + segment.length)).toEqual(mp4);
    // Stored files never change under their name: the second request reads nothing again.
    fs.rmSync(file);
    expect(await locateVideoStream(blobs, 'a.dcm')).toEqual(stream);
  });

  it('finds nothing in a file without encapsulated Pixel Data', async () => {
    const file = path.join(dir, 'plain.dcm');
    fs.writeFileSync(
      file,
      Buffer.concat([Buffer.alloc(128), Buffer.from('DICM', 'latin1'), Buffer.alloc(64)]),
    );
    expect(await locateVideoStream(blobs, 'plain.dcm')).toBeNull();
  });
});
