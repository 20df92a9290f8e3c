/**
 * A malformed JPEG-LS frame traps inside the WebAssembly decoder (issue 14, item 2). Decoding runs
 * on replaceable worker threads: the bad instance answers 406 (its thumbnail a placeholder picture,
 * also 406), and after dozens of such renders every valid JPEG, RLE, JPEG-LS and JPEG 2000 instance
 * still renders.
 */
import fs from 'node:fs';
import dicomParser from 'dicom-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDicomHeader } from '../../src/dicom/index.js';
import { codecPool } from '../../src/imaging/codecs.js';
import { PYDICOM_DIR } from '../dicom/support.js';
import { IngestWays } from '../support/ingest-ways.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { corruptFrame, withSopInstanceUid } from '../support/mutate.js';

const read = (name: string) => fs.readFileSync(`${PYDICOM_DIR}/test_files/${name}`);
const GOOD = {
  jpeg: read('SC_rgb_jpeg_dcmtk.dcm'),
  rle: read('MR_small_RLE.dcm'),
  jpegLs: read('MR_small_jpeg_ls_lossless.dcm'),
  jpeg2000: read('JPEG2000.dcm'),
};
/** 16 JPEG-LS instances with 20 bytes of their frame overwritten; most trap the decoder. */
const BAD = Array.from({ length: 16 }, (_, i) =>
  withSopInstanceUid(corruptFrame(GOOD.jpegLs, 1000 + i, 20), 100 + i),
);
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47];

describe.each(DIALECTS)('codec isolation on %s', (dialect) => {
  let server: TestServer;
  let ways: IngestWays;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    ways = await IngestWays.open(server);
    for (const file of [...Object.values(GOOD), ...BAD]) {
      const delivery = await ways.send('upload', file);
      expect(delivery.status, JSON.stringify(delivery)).toBe(202);
    }
  });
  afterAll(() => server?.stop());

  const url = (file: Buffer, what: 'rendered' | 'thumbnail') => {
    const uids = parseDicomHeader(file);
    return (
      `${server.url}/dicomweb/studies/${uids.studyInstanceUid}/series/${uids.seriesInstanceUid}` +
      `/instances/${uids.sopInstanceUid}/${what}`
    );
  };
  const get = async (file: Buffer, what: 'rendered' | 'thumbnail') => {
    const response = await fetch(url(file, what), {
      headers: { authorization: `Bearer ${ways.sid}`, accept: 'image/png' },
    });
    return {
      status: response.status,
      type: response.headers.get('content-type') ?? '',
      body: Buffer.from(await response.arrayBuffer()),
    };
  };

  it('answers 406 for each malformed instance, a placeholder thumbnail, and keeps rendering the valid ones', async () => {
    const replacedBefore = codecPool().replaced;
    for (const round of [1, 2]) {
      for (const bad of BAD) {
        const rendered = await get(bad, 'rendered');
        // A few corruptions still decode (to wrong pixels): those render; none may fail the server.
        expect([200, 406], `round ${round}`).toContain(rendered.status);
        if (rendered.status === 406)
          expect(JSON.parse(rendered.body.toString()).error_type).toBe('INVALID_DICOM');
        const thumbnail = await get(bad, 'thumbnail');
        expect([200, 406]).toContain(thumbnail.status);
        expect(thumbnail.type).toBe('image/png');
        expect([...thumbnail.body.subarray(0, 4)]).toEqual(PNG_SIGNATURE);
      }
    }
    // The decoder did trap, more than a few dozen times, and its workers were replaced.
    expect(codecPool().replaced - replacedBefore).toBeGreaterThan(20);
    for (const [name, file] of Object.entries(GOOD)) {
      for (const what of ['rendered', 'thumbnail'] as const) {
        const answer = await get(file, what);
        expect(answer.status, `${name} ${what}`).toBe(200);
        expect([...answer.body.subarray(0, 4)]).toEqual(PNG_SIGNATURE);
      }
    }
    // Each trap replaces a decoder worker (a new thread compiling its WebAssembly): dozens of them
    // take a few seconds on an idle machine and more than the default 30 s on two busy cores.
  }, 120_000);

  it('refuses a frame whose codestream claims a larger picture than its header, without decoding it', async () => {
    // JPEG 2000's SIZ says how large the picture is; one that claims 60,000 × 60,000 is not decoded.
    const file = withSopInstanceUid(Buffer.from(GOOD.jpeg2000), 99);
    const pixelData = dicomParser.parseDicom(file).elements['x7fe00010']!;
    const siz = file.indexOf(Buffer.from([0xff, 0x4f, 0xff, 0x51]), pixelData.dataOffset) + 4;
    file.writeUInt32BE(60_000, siz + 4);
    file.writeUInt32BE(60_000, siz + 8);
    expect((await ways.send('upload', file)).status).toBe(202);
    const replacedBefore = codecPool().replaced;
    const answer = await get(file, 'rendered');
    expect(answer.status).toBe(406);
    expect(JSON.parse(answer.body.toString()).error_subtype).toMatch(/declares 60000 × 60000/);
    expect(codecPool().replaced).toBe(replacedBefore);
  });
});
