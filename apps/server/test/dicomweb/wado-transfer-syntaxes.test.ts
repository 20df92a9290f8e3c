import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshCorpusCopy } from '../support/corpus.js';
import { parseMultipart } from '../support/multipart.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

/**
 * WADO-RS retrieval of one real file per transfer syntax from Debian's pydicom test corpus: the
 * instance comes back byte for byte as sent, and frame 1 comes back in the media type its syntax
 * calls for, with bytes a decoder can use (native frames little endian at their exact size,
 * compressed frames starting with their codec's marker). Each file is sent with fresh UIDs
 * (`freshCorpusCopy`).
 */

const NATIVE = 'application/octet-stream; transfer-syntax=1.2.840.10008.1.2.1';

interface Case {
  file: string;
  syntax: string;
  contentType: string;
  /** Checks frame 1's bytes. */
  frame: (bytes: Buffer) => void;
}

/** A native frame: exactly rows × columns × samples × bytes per sample. */
const nativeSize = (size: number) => (bytes: Buffer) => expect(bytes.length).toBe(size);
const startsWith = (marker: number[]) => (bytes: Buffer) =>
  expect([...bytes.subarray(0, marker.length)]).toEqual(marker);
const JPEG_SOI = [0xff, 0xd8];
const J2K_SOC_SIZ = [0xff, 0x4f, 0xff, 0x51];
/** An RLE frame starts with a 64-byte header whose first word counts its segments (1 to 15). */
const rleHeader = (segments: number) => (bytes: Buffer) => {
  expect(bytes.readUInt32LE(0)).toBe(segments);
  expect(bytes.readUInt32LE(4)).toBe(64);
};

const CASES: Case[] = [
  {
    file: 'MR_small_implicit.dcm',
    syntax: '1.2.840.10008.1.2',
    contentType: NATIVE,
    frame: nativeSize(64 * 64 * 2),
  },
  {
    file: 'CT_small.dcm',
    syntax: '1.2.840.10008.1.2.1',
    contentType: NATIVE,
    frame: nativeSize(128 * 128 * 2),
  },
  {
    file: 'MR_small_bigendian.dcm',
    syntax: '1.2.840.10008.1.2.2',
    contentType: NATIVE,
    frame: nativeSize(64 * 64 * 2),
  },
  {
    file: 'image_dfl.dcm',
    syntax: '1.2.840.10008.1.2.1.99',
    contentType: NATIVE,
    frame: nativeSize(512 * 512),
  },
  {
    file: 'SC_rgb_jpeg_dcmtk.dcm',
    syntax: '1.2.840.10008.1.2.4.50',
    contentType: 'image/jpeg; transfer-syntax=1.2.840.10008.1.2.4.50',
    frame: startsWith(JPEG_SOI),
  },
  {
    file: 'JPGExtended.dcm',
    syntax: '1.2.840.10008.1.2.4.51',
    contentType: 'image/jpeg; transfer-syntax=1.2.840.10008.1.2.4.51',
    frame: startsWith(JPEG_SOI),
  },
  {
    file: 'SC_rgb_jpeg_gdcm.dcm',
    syntax: '1.2.840.10008.1.2.4.70',
    contentType: 'image/jpeg; transfer-syntax=1.2.840.10008.1.2.4.70',
    frame: startsWith(JPEG_SOI),
  },
  {
    file: 'MR_small_jpeg_ls_lossless.dcm',
    syntax: '1.2.840.10008.1.2.4.80',
    contentType: 'image/jls; transfer-syntax=1.2.840.10008.1.2.4.80',
    frame: startsWith([...JPEG_SOI, 0xff, 0xf7]),
  },
  {
    file: 'MR_small_jp2klossless.dcm',
    syntax: '1.2.840.10008.1.2.4.90',
    contentType: 'image/jp2; transfer-syntax=1.2.840.10008.1.2.4.90',
    frame: startsWith(J2K_SOC_SIZ),
  },
  {
    file: 'JPEG2000.dcm',
    syntax: '1.2.840.10008.1.2.4.91',
    contentType: 'image/jp2; transfer-syntax=1.2.840.10008.1.2.4.91',
    frame: startsWith(J2K_SOC_SIZ),
  },
  {
    file: 'MR_small_RLE.dcm',
    syntax: '1.2.840.10008.1.2.5',
    contentType: 'image/x-dicom-rle; transfer-syntax=1.2.840.10008.1.2.5',
    frame: rleHeader(2),
  },
  {
    file: 'SC_rgb_rle_2frame.dcm',
    syntax: '1.2.840.10008.1.2.5',
    contentType: 'image/x-dicom-rle; transfer-syntax=1.2.840.10008.1.2.5',
    frame: rleHeader(3),
  },
];

describe.each(DIALECTS)('WADO-RS of every pydicom transfer syntax on %s', (dialect) => {
  let server: TestServer;
  let sid: string;
  let emergency: string;
  /** The corpus file with fresh UIDs, checked to be in the syntax the case names. */
  function freshCopy(file: string, syntax: string): Buffer {
    const { bytes, transferSyntax } = freshCorpusCopy(file);
    expect(transferSyntax).toBe(syntax);
    return bytes;
  }

  const get = (url: string) =>
    fetch(`${server.url}/dicomweb${url}`, { headers: { authorization: `Bearer ${sid}` } });

  beforeAll(async () => {
    server = await startTestServer(dialect, { SEED_STUDIES: '2' });
    sid = await server.api.login('clinician@demo.local');
    emergency = await server.api.namespaceOf(sid, 'Emergency');
  });
  afterAll(() => server?.stop());

  it.each(CASES)('$file ($syntax)', async ({ file, syntax, contentType, frame }) => {
    const bytes = freshCopy(file, syntax);
    const upload = await server.api.upload(sid, emergency, bytes);
    expect(upload.status, JSON.stringify(upload.body)).toBe(202);
    const { study_uid, series_uid, sop_instance_uid } = upload.body as Record<string, string>;
    const instanceUrl = `/studies/${study_uid}/series/${series_uid}/instances/${sop_instance_uid}`;

    const instance = await get(instanceUrl);
    expect(instance.status).toBe(200);
    const [part] = parseMultipart(
      Buffer.from(await instance.arrayBuffer()),
      instance.headers.get('content-type')!,
    );
    const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
    expect(sha(part!.bytes)).toBe(sha(bytes));

    const metadata = (await (await get(`${instanceUrl}/metadata`)).json()) as Record<
      string,
      { Value?: unknown[] }
    >[];
    expect(metadata[0]!['00020010']?.Value?.[0] ?? syntax).toBe(syntax);
    // The header is read whatever the syntax (a deflated one inflated off the main thread first).
    expect(metadata[0]!['00080018']?.Value?.[0]).toBe(sop_instance_uid);
    expect(metadata[0]!['0020000D']?.Value?.[0]).toBe(study_uid);
    expect(Object.keys(metadata[0]!).length).toBeGreaterThan(15); // the file's header, not the index's

    const frames = await get(`${instanceUrl}/frames/1`);
    expect(frames.status).toBe(200);
    const [framePart] = parseMultipart(
      Buffer.from(await frames.arrayBuffer()),
      frames.headers.get('content-type')!,
    );
    expect(framePart!.headers).toContain(`Content-Type: ${contentType}`);
    frame(framePart!.bytes);
  });

  it('sends big-endian pixels little endian, equal to the explicit little-endian copy of the same image', async () => {
    // MR_small_bigendian.dcm and MR_small.dcm hold the same pixels in two byte orders.
    const frameOf = async (file: string, syntax: string) => {
      const upload = await server.api.upload(sid, emergency, freshCopy(file, syntax));
      const { study_uid, series_uid, sop_instance_uid } = upload.body as Record<string, string>;
      const response = await get(
        `/studies/${study_uid}/series/${series_uid}/instances/${sop_instance_uid}/frames/1`,
      );
      return parseMultipart(
        Buffer.from(await response.arrayBuffer()),
        response.headers.get('content-type')!,
      )[0]!.bytes;
    };
    const bigEndian = await frameOf('MR_small_bigendian.dcm', '1.2.840.10008.1.2.2');
    const littleEndian = await frameOf('MR_small.dcm', '1.2.840.10008.1.2.1');
    expect(bigEndian.length).toBe(64 * 64 * 2);
    expect(bigEndian.equals(littleEndian)).toBe(true);
  });
});
