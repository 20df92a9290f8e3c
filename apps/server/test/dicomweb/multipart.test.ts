import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MultipartError, parseMediaType, readMultipartRelated } from '../../src/dicomweb/multipart.js';

function chunked(bytes: Buffer, sizes: number[]): Readable {
  const chunks: Buffer[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return Readable.from(chunks);
}

async function collect(body: Buffer, boundary: string, sizes: number[]) {
  const parts: { headers: Record<string, string>; data: Buffer }[] = [];
  await readMultipartRelated(chunked(body, sizes), boundary, async (part) => {
    const data: Buffer[] = [];
    for await (const c of part.body) data.push(c as Buffer);
    parts.push({ headers: part.headers, data: Buffer.concat(data) });
  });
  return parts;
}

describe('multipart/related reader', () => {
  const boundary = 'b0undary';
  // Part bodies that contain near-delimiters and CRLFs, to catch split and partial matches.
  const one = Buffer.from('first\r\n--b0undar\r\n-- b0undary not really\r\n');
  const two = Buffer.alloc(70_000, 0x41);
  const body = Buffer.concat([
    Buffer.from(
      `preamble to ignore\r\n--${boundary}\r\nContent-Type: application/dicom\r\nContent-ID: <1>\r\n\r\n`,
    ),
    one,
    Buffer.from(`\r\n--${boundary}  \r\ncontent-type: application/dicom\r\n\r\n`),
    two,
    Buffer.from(`\r\n--${boundary}--\r\nepilogue`),
  ]);

  it.each([[[1]], [[3, 7, 11]], [[64 * 1024]], [[body.length]]])(
    'reassembles the parts from chunks of %j bytes',
    async (sizes) => {
      const parts = await collect(body, boundary, sizes);
      expect(parts).toHaveLength(2);
      expect(parts[0]!.headers).toEqual({ 'content-type': 'application/dicom', 'content-id': '<1>' });
      expect(parts[0]!.data.equals(one)).toBe(true);
      expect(parts[1]!.data.equals(two)).toBe(true);
    },
  );

  it('rejects a body cut before its closing boundary', async () => {
    await expect(collect(body.subarray(0, 200), boundary, [50])).rejects.toBeInstanceOf(MultipartError);
  });

  it('parses the media type with quoted parameters', () => {
    expect(parseMediaType('Multipart/Related; type="application/dicom"; boundary="a b"')).toEqual({
      type: 'multipart/related',
      params: { type: 'application/dicom', boundary: 'a b' },
    });
  });
});
