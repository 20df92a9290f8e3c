import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compress, pickEncoding } from './compress-json.js';

describe('pickEncoding', () => {
  it('prefers brotli, then gzip', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('gzip, deflate')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
  });
  it('honours q=0 and takes nothing it was not offered', () => {
    expect(pickEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(pickEncoding('*, br;q=0')).toBe('gzip');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding('deflate')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
    expect(pickEncoding('')).toBeNull();
  });
});

describe('compress', () => {
  const answer = (studies: number) =>
    Buffer.from(
      JSON.stringify({
        status: 'OK',
        studies: Array.from({ length: studies }, (_, i) => ({
          uuid: `study-${i}`,
          patient_name: `DOE^JANE${i % 97}`,
          study_description: 'CT CHEST WITHOUT CONTRAST',
        })),
      }),
    );

  it('answers an ordinary page at once and a large answer from the thread pool, both whole', async () => {
    const page = answer(50);
    const large = answer(8000);
    expect(page.length).toBeLessThan(256 * 1024);
    expect(large.length).toBeGreaterThan(256 * 1024);

    const pageBr = compress(page, 'br');
    expect(Buffer.isBuffer(pageBr)).toBe(true);
    expect(zlib.brotliDecompressSync(pageBr as Buffer).equals(page)).toBe(true);
    const pageGz = compress(page, 'gzip');
    expect(Buffer.isBuffer(pageGz)).toBe(true);
    expect(zlib.gunzipSync(pageGz as Buffer).equals(page)).toBe(true);

    const largeBr = compress(large, 'br');
    expect(largeBr).toBeInstanceOf(Promise);
    const largeBrBytes = await largeBr;
    expect(largeBrBytes.length).toBeLessThan(large.length / 10);
    expect(zlib.brotliDecompressSync(largeBrBytes).equals(large)).toBe(true);
    const largeGz = compress(large, 'gzip');
    expect(largeGz).toBeInstanceOf(Promise);
    expect(zlib.gunzipSync(await largeGz).equals(large)).toBe(true);
  });
});
