/**
 * Unusual but accepted files get a clear answer, never a 500 (issue 14, item 5): WADO-RS metadata
 * decodes ISO 2022 code extensions and degrades on an unknown character set, a bad VR or a File
 * Meta Information Group Length that overstates the meta header; corrupt JPEG, JPEG 2000 and RLE
 * frames answer 406 on /rendered and on /thumbnail (a placeholder picture there).
 */
import fs from 'node:fs';
import dicomParser from 'dicom-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInstance, parseDicomHeader } from '../../src/dicom/index.js';
import { baseSpec, PYDICOM_DIR } from '../dicom/support.js';
import { IngestWays } from '../support/ingest-ways.js';
import { withSopInstanceUid } from '../support/mutate.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

const charsetFile = (name: string) => fs.readFileSync(`${PYDICOM_DIR}/charset_files/${name}`);
const testFile = (name: string) => fs.readFileSync(`${PYDICOM_DIR}/test_files/${name}`);

/** (0002,0000) claiming almost 4 GB of meta header. */
function hugeMetaLength(): Buffer {
  const file = withSopInstanceUid(testFile('CT_small.dcm'), 71);
  file.writeUInt32LE(0xfffffff0, 140);
  return file;
}

/** Study Description (0008,1030) written with the VR `ZZ`, which no standard defines. */
function badVr(): Buffer {
  const file = withSopInstanceUid(testFile('CT_small.dcm'), 72);
  const element = dicomParser.parseDicom(file, { untilTag: 'x7fe00010' }).elements['x00081030']!;
  file.write('ZZ', element.dataOffset - 4, 'latin1');
  return file;
}

/** ISO_IR 100 renamed to a term no standard defines (same length). */
function unknownCharset(): Buffer {
  const file = Buffer.from(charsetFile('chrFren.dcm'));
  const at = file.indexOf('ISO_IR 100');
  file.write('ISO_IR 999', at, 'latin1');
  return file;
}

/** The first `count` bytes of the first frame fragment overwritten with `byte`. */
function smashFrame(file: Buffer, sop: number, byte: number, count: number): Buffer {
  const out = withSopInstanceUid(file, sop);
  const fragment = dicomParser.parseDicom(out).elements['x7fe00010']!.fragments![0]!;
  out.fill(byte, fragment.position, fragment.position + Math.min(count, fragment.length));
  return out;
}

const H32 = charsetFile('chrH32.dcm');
const FILES = {
  japanese: H32,
  japaneseKanji: charsetFile('chrH31.dcm'),
  korean: charsetFile('chrI2.dcm'),
  unknownCharset: unknownCharset(),
  hugeMetaLength: hugeMetaLength(),
  badVr: badVr(),
};
const CORRUPT = {
  jpeg: smashFrame(testFile('SC_rgb_jpeg_dcmtk.dcm'), 81, 0x00, 400),
  jpeg2000: smashFrame(testFile('JPEG2000.dcm'), 82, 0xff, 200),
  rle: smashFrame(testFile('MR_small_RLE.dcm'), 83, 0x0f, 64),
};

describe.each(DIALECTS)('unusual files on %s', (dialect) => {
  let server: TestServer;
  let ways: IngestWays;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    ways = await IngestWays.open(server);
    for (const file of [...Object.values(FILES), ...Object.values(CORRUPT)]) {
      const delivery = await ways.send('upload', file);
      expect(delivery.status, JSON.stringify(delivery)).toBe(202);
    }
  });
  afterAll(() => server?.stop());

  const instancePath = (file: Buffer) => {
    const uids = parseDicomHeader(file);
    return `${server.url}/dicomweb/studies/${uids.studyInstanceUid}/series/${uids.seriesInstanceUid}/instances/${uids.sopInstanceUid}`;
  };
  const metadata = async (file: Buffer) => {
    const response = await fetch(`${instancePath(file)}/metadata`, {
      headers: { authorization: `Bearer ${ways.sid}` },
    });
    return { status: response.status, body: (await response.json()) as Record<string, any>[] };
  };

  it('decodes ISO 2022 code extensions in WADO-RS metadata (Japanese, Korean)', async () => {
    const japanese = await metadata(FILES.japanese);
    expect(japanese.status).toBe(200);
    expect(japanese.body[0]!['00100010']).toEqual({
      vr: 'PN',
      Value: [{ Alphabetic: 'ﾔﾏﾀﾞ^ﾀﾛｳ', Ideographic: '山田^太郎', Phonetic: 'やまだ^たろう' }],
    });
    // The values are Unicode now, which is what the answer's character set says.
    expect(japanese.body[0]!['00080005']).toEqual({ vr: 'CS', Value: ['ISO_IR 192'] });
    const kanji = await metadata(FILES.japaneseKanji);
    expect(kanji.body[0]!['00100010'].Value[0]).toEqual({
      Alphabetic: 'Yamada^Tarou',
      Ideographic: '山田^太郎',
      Phonetic: 'やまだ^たろう',
    });
    const korean = await metadata(FILES.korean);
    expect(korean.body[0]!['00100010'].Value[0]).toEqual({
      Alphabetic: 'Hong^Gildong',
      Ideographic: '洪^吉洞',
      Phonetic: '홍^길동',
    });
    // The index reads the same names (study list, search).
    expect(parseDicomHeader(H32).patientName).toBe('ﾔﾏﾀﾞ^ﾀﾛｳ=山田^太郎=やまだ^たろう');
  });

  it('degrades on an unknown character set, a bad VR and a huge meta length instead of failing', async () => {
    const unknown = await metadata(FILES.unknownCharset);
    expect(unknown.status).toBe(200);
    expect(unknown.body[0]!['00100010'].Value[0].Alphabetic).toBe('Buc^Jérôme'); // read as Latin-1

    const vr = await metadata(FILES.badVr);
    expect(vr.status).toBe(200);
    // dcmjs reads it as UN (whose length field is longer, so what follows is lost): the identifying
    // UIDs come from the index then.
    expect(vr.body[0]!['00081030'].vr).toBe('UN');
    const ids = parseDicomHeader(FILES.badVr);
    expect(vr.body[0]!['0020000D']).toEqual({ vr: 'UI', Value: [ids.studyInstanceUid] });
    expect(vr.body[0]!['00080018']).toEqual({ vr: 'UI', Value: [ids.sopInstanceUid] });

    const meta = await metadata(FILES.hugeMetaLength);
    expect(meta.status).toBe(200);
    const uids = parseDicomHeader(FILES.hugeMetaLength);
    expect(meta.body[0]!['00080018']).toEqual({ vr: 'UI', Value: [uids.sopInstanceUid] });
    expect(meta.body[0]!['00100010'].Value[0].Alphabetic).toBe(uids.patientName);
  });

  it('indexes a text value with a NUL inside (found by the fuzz tier: PostgreSQL refused it with a 500)', async () => {
    const file = buildInstance(
      baseSpec({
        studyDescription: 'CT\u0000HEAD',
        studyInstanceUid: '2.25.4242',
        sopInstanceUid: '2.25.4242.1.1',
      }),
    );
    expect((await ways.send('upload', file)).status).toBe(202);
    expect(parseDicomHeader(file).studyDescription).toBe('CT\uFFFDHEAD');
  });

  it.each(Object.keys(CORRUPT) as (keyof typeof CORRUPT)[])(
    'answers 406 for a corrupt %s frame, rendered and as thumbnail',
    async (kind) => {
      const headers = { authorization: `Bearer ${ways.sid}`, accept: 'image/png' };
      const rendered = await fetch(`${instancePath(CORRUPT[kind])}/rendered`, { headers });
      expect(rendered.status).toBe(406);
      expect(((await rendered.json()) as { error_type: string }).error_type).toBe('INVALID_DICOM');
      const thumbnail = await fetch(`${instancePath(CORRUPT[kind])}/thumbnail`, { headers });
      expect(thumbnail.status).toBe(406);
      expect(thumbnail.headers.get('content-type')).toBe('image/png');
      expect(thumbnail.headers.get('x-rendering-error')).toBeTruthy();
      const picture = Buffer.from(await thumbnail.arrayBuffer());
      expect([...picture.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    },
  );
});
