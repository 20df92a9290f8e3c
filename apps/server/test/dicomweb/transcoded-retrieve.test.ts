import fs from 'node:fs';
import path from 'node:path';
import dicomParser from 'dicom-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';
const EXPLICIT_LE = '1.2.840.10008.1.2.1';
const ACCEPT = `multipart/related; type="application/dicom"; transfer-syntax=${EXPLICIT_LE}`;

/** The single part of a multipart/related answer. */
function onlyPart(body: Buffer, contentType: string): Buffer {
  const boundary = /boundary=([^;]+)/.exec(contentType)![1]!.replace(/"/g, '');
  const start = body.indexOf('\r\n\r\n') + 4;
  const end = body.indexOf(Buffer.from(`\r\n--${boundary}--`));
  return body.subarray(start, end);
}

function pixelsOf(file: Buffer): { syntax: string; pixels: Buffer } {
  const dataSet = dicomParser.parseDicom(new Uint8Array(file.buffer, file.byteOffset, file.byteLength));
  const element = dataSet.elements['x7fe00010']!;
  return {
    syntax: dataSet.string('x00020010')!.trim(),
    pixels: file.subarray(element.dataOffset, element.dataOffset + element.length),
  };
}

describe.each(DIALECTS)('WADO-RS retrieval transcoded to Explicit VR Little Endian on %s', (dialect) => {
  let server: TestServer;
  let sid: string;
  let namespaces: string[];

  beforeAll(async () => {
    server = await startTestServer(dialect);
    sid = await server.api.login('admin@demo.local');
    namespaces = (await server.api.groups(sid)).map((g) => g.namespace_id);
  });
  afterAll(() => server?.stop());

  async function retrieveTranscoded(name: string, namespace: string) {
    const upload = await server.api.upload(sid, namespace, fs.readFileSync(path.join(PYDICOM, name)));
    expect(upload.status, name).toBe(202);
    const { study_uid, series_uid, sop_instance_uid } = upload.body as Record<string, string>;
    const response = await fetch(
      `${server.url}/dicomweb/studies/${study_uid}/series/${series_uid}/instances/${sop_instance_uid}`,
      { headers: { authorization: `Bearer ${sid}`, accept: ACCEPT } },
    );
    expect(response.status, name).toBe(200);
    const type = response.headers.get('content-type')!;
    expect(type).toContain(`transfer-syntax=${EXPLICIT_LE}`);
    return onlyPart(Buffer.from(await response.arrayBuffer()), type);
  }

  it('decodes lossless RLE, JPEG-LS and JPEG 2000 to the same pixels as the uncompressed original', async () => {
    const reference = pixelsOf(fs.readFileSync(path.join(PYDICOM, 'MR_small.dcm')));
    expect(reference.syntax).toBe(EXPLICIT_LE);
    const names = ['MR_small_RLE.dcm', 'MR_small_jpeg_ls_lossless.dcm', 'MR_small_jp2klossless.dcm'];
    expect(namespaces.length).toBeGreaterThanOrEqual(names.length);
    for (const [index, name] of names.entries()) {
      // Each copy goes to its own group: the files share one SOP Instance UID.
      const file = pixelsOf(await retrieveTranscoded(name, namespaces[index]!));
      expect(file.syntax, name).toBe(EXPLICIT_LE);
      expect(file.pixels.equals(reference.pixels), name).toBe(true);
    }
  });

  it('converts colour JPEG to interleaved RGB', async () => {
    const file = await retrieveTranscoded('SC_rgb_jpeg_dcmtk.dcm', namespaces[0]!);
    const dataSet = dicomParser.parseDicom(new Uint8Array(file));
    expect(dataSet.string('x00280004')).toBe('RGB');
    expect(dataSet.elements['x7fe00010']!.length).toBe(
      dataSet.uint16('x00280010')! * dataSet.uint16('x00280011')! * 3,
    );
  });
});
