import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInstance, newUid, type InstanceSpec, type Modality } from '../../src/dicom/index.js';
import type { TestServer } from '../support/test-server.js';
import { freshCorpusCopy } from '../support/corpus.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { someStudyUidIn } from '../support/studies.js';

interface Png {
  width: number;
  height: number;
  colourType: number;
  pixels: Buffer;
}

/** Decodes the PNGs this server writes (8-bit, filter 0 on every row), checking the structure. */
function decodePng(bytes: Buffer): Png {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let at = 8;
  let header: Buffer | undefined;
  const idat: Buffer[] = [];
  while (at < bytes.length) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const body = bytes.subarray(at + 8, at + 8 + length);
    expect(bytes.readUInt32BE(at + 8 + length)).toBe(zlib.crc32(bytes.subarray(at + 4, at + 8 + length)));
    if (type === 'IHDR') header = body;
    if (type === 'IDAT') idat.push(body);
    at += 12 + length;
  }
  expect(header).toBeDefined();
  const width = header!.readUInt32BE(0);
  const height = header!.readUInt32BE(4);
  const colourType = header![9]!;
  const channels = colourType === 2 ? 3 : 1;
  const raw = zlib.inflateSync(Buffer.concat(idat));
  expect(raw.length).toBe((width * channels + 1) * height);
  const pixels = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    expect(raw[y * (width * channels + 1)]).toBe(0);
    raw.copy(pixels, y * width * channels, y * (width * channels + 1) + 1, (y + 1) * (width * channels + 1));
  }
  return { width, height, colourType, pixels };
}

function variance(values: Buffer): number {
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  return values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length;
}

function instanceSpec(modality: Modality, studyUid: string, seriesUid: string, n: number): InstanceSpec {
  return {
    patientName: 'RENDER^TEST',
    patientId: 'RENDER1',
    patientSex: 'O',
    patientBirthDate: '19700101',
    studyInstanceUid: studyUid,
    studyDate: '20240102',
    studyTime: '101500',
    studyDescription: 'Render test',
    accessionNumber: 'RENDER1',
    referringPhysician: 'DOE^JANE',
    institutionName: 'Test',
    seriesInstanceUid: seriesUid,
    seriesNumber: modality === 'CT' ? 1 : 2,
    seriesDescription: modality === 'CT' ? 'AXIAL CT' : 'US LOOP',
    modality,
    bodyPart: 'CHEST',
    sopInstanceUid: `${seriesUid}.${n}`,
    instanceNumber: n,
    rows: 80,
    columns: 96,
  };
}

describe.each(DIALECTS)('WADO-RS rendered and thumbnails on %s', (dialect) => {
  let server: TestServer;
  let sid: string;
  let emergency: string;
  const studyUid = newUid();
  const ctSeries = `${studyUid}.1`;
  const usSeries = `${studyUid}.2`;
  let foreignStudyUid: string;

  const get = (url: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/dicomweb${url}`, { headers: { authorization: `Bearer ${sid}`, ...headers } });
  const png = async (response: Response) => {
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    return decodePng(Buffer.from(await response.arrayBuffer()));
  };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    sid = await server.api.login('clinician@demo.local');
    emergency = await server.api.namespaceOf(sid, 'Emergency');
    // Uploaded out of order: the middle instance is chosen by instance number, not arrival.
    for (const n of [5, 1, 4, 2, 3]) {
      const answer = await server.api.upload(
        sid,
        emergency,
        buildInstance(instanceSpec('CT', studyUid, ctSeries, n)),
      );
      expect(answer.status).toBe(202);
    }
    const us = await server.api.upload(
      sid,
      emergency,
      buildInstance(instanceSpec('US', studyUid, usSeries, 1)),
    );
    expect(us.status).toBe(202);
    foreignStudyUid = await someStudyUidIn(server.ctx.db, 'PACS Intake');
  });
  afterAll(() => server?.stop());

  it('renders a CT series thumbnail from the middle slice as a windowed PNG, cached on disk', async () => {
    const url = `/studies/${studyUid}/series/${ctSeries}/thumbnail?viewport=64,64`;
    const image = await png(await get(url));
    expect(image.colourType).toBe(0);
    expect(image.width).toBe(64); // 96×80 fitted into 64×64 keeps the aspect ratio
    expect(image.height).toBe(53);
    expect(variance(image.pixels)).toBeGreaterThan(10);

    const middle = await server.ctx.db.kysely
      .selectFrom('instances')
      .select('sha256')
      .where('sop_instance_uid', '=', `${ctSeries}.3`)
      .executeTakeFirstOrThrow();
    const cached = path.join(server.dataDir, 'thumbnails', `${middle.sha256}-64x64.png`);
    expect(fs.existsSync(cached)).toBe(true);
    // The second request is answered from the cache file, not rendered again.
    expect(decodePng(fs.readFileSync(cached)).pixels.equals(image.pixels)).toBe(true);
    fs.writeFileSync(cached, 'cached bytes');
    expect(await (await get(url)).text()).toBe('cached bytes');
    fs.rmSync(cached);

    const fallback = await png(await get(`/studies/${studyUid}/series/${ctSeries}/thumbnail`));
    expect(Math.max(fallback.width, fallback.height)).toBe(128);
  });

  it("draws thumbnails 8 bits deep (the spec's thumbnail depth) and refuses another depth", async () => {
    const own = `/studies/${studyUid}/series/${ctSeries}/thumbnail`;
    for (const url of [own, `${own}?depth=8`]) {
      const bytes = Buffer.from(await (await get(url)).arrayBuffer());
      expect(bytes.toString('latin1', 12, 16)).toBe('IHDR');
      expect(bytes[24]).toBe(8); // IHDR bit depth: 8 bits per sample (the CT's own are 16)
    }
    const refused = await get(`${own}?depth=16`);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/depth/);
  });

  it('applies the window from the file, or the one in the query', async () => {
    const base = `/studies/${studyUid}/series/${ctSeries}/instances/${ctSeries}.2/rendered`;
    const plain = Buffer.from(await (await get(base)).arrayBuffer());
    const same = Buffer.from(await (await get(`${base}?window=40,400`)).arrayBuffer());
    const wide = Buffer.from(await (await get(`${base}?window=1000,4000`)).arrayBuffer());
    expect(same.equals(plain)).toBe(true);
    expect(wide.equals(plain)).toBe(false);
    const image = decodePng(plain);
    expect([image.width, image.height]).toEqual([96, 80]);
    expect((await get(`${base}?window=40`)).status).toBe(400);
    const frame = await png(await get(base.replace('/rendered', '/frames/1/rendered')));
    expect(frame.pixels.equals(image.pixels)).toBe(true);
    expect((await get(base.replace('/rendered', '/frames/2/rendered'))).status).toBe(404);
  });

  it('keeps colour images in colour and answers JPEG when asked', async () => {
    const url = `/studies/${studyUid}/series/${usSeries}/instances/${usSeries}.1/rendered`;
    const image = await png(await get(url));
    expect(image.colourType).toBe(2);
    let coloured = false;
    for (let i = 0; i < image.pixels.length; i += 3)
      if (image.pixels[i] !== image.pixels[i + 1]) coloured = true;
    expect(coloured).toBe(true);
    const jpeg = await get(url, { accept: 'image/jpeg' });
    expect(jpeg.headers.get('content-type')).toBe('image/jpeg');
    expect([...Buffer.from(await jpeg.arrayBuffer()).subarray(0, 2)]).toEqual([0xff, 0xd8]);
    expect((await get(url, { accept: 'application/pdf' })).status).toBe(406);
  });

  it('renders pydicom files: JPEG baseline, JPEG-LS, JPEG 2000, RLE, big endian, deflated', async () => {
    const files: [string, number][] = [
      ['SC_rgb_jpeg_dcmtk.dcm', 2],
      ['MR_small_jpeg_ls_lossless.dcm', 0],
      ['JPEG2000.dcm', 0],
      ['MR_small_RLE.dcm', 0],
      ['SC_rgb_rle.dcm', 2],
      ['MR_small_bigendian.dcm', 0],
      ['image_dfl.dcm', 0],
    ];
    for (const [name, colourType] of files) {
      // Fresh UIDs: the MR_small_* files share theirs, and a re-store would answer the first one.
      const upload = await server.api.upload(sid, emergency, freshCorpusCopy(name).bytes);
      expect(upload.status, name).toBe(202);
      const { study_uid, series_uid, sop_instance_uid } = upload.body as Record<string, string>;
      const image = await png(
        await get(`/studies/${study_uid}/series/${series_uid}/instances/${sop_instance_uid}/rendered`),
      );
      expect(image.colourType, name).toBe(colourType);
      expect(variance(image.pixels), name).toBeGreaterThan(10);
      if (colourType === 2) {
        // SC_rgb_* show red, green and blue stripes: some pixel is far more red than green.
        let red = false;
        for (let i = 0; i < image.pixels.length; i += 3)
          if (image.pixels[i]! - image.pixels[i + 1]! > 100) red = true;
        expect(red, name).toBe(true);
      }
    }
  });

  it('lists series thumbnails for the Summary through api/v3', async () => {
    const study = await server.ctx.db.kysely
      .selectFrom('studies')
      .select('uuid')
      .where('study_uid', '=', studyUid)
      .executeTakeFirstOrThrow();
    const { status, body } = await server.api.get('study/thumbnails', { uuid: study.uuid, sid });
    expect(status).toBe(200);
    expect(body.thumbnails).toEqual([
      expect.objectContaining({
        series_uid: ctSeries,
        description: 'AXIAL CT',
        modality: 'CT',
        image_count: 5,
      }),
      expect.objectContaining({
        series_uid: usSeries,
        description: 'US LOOP',
        modality: 'US',
        image_count: 1,
      }),
    ]);
    const image = await png(await fetch(`${server.url}${body.thumbnails[0].url}?sid=${sid}`));
    expect(image.width).toBe(128);
    const foreign = await server.ctx.db.kysely
      .selectFrom('studies')
      .select('uuid')
      .where('study_uid', '=', foreignStudyUid)
      .executeTakeFirstOrThrow();
    const refused = await server.api.get('study/thumbnails', { uuid: foreign.uuid, sid });
    expect(refused.status).toBe(412);
    expect(refused.body.error_type).toBe('NOT_FOUND');
    expect((await server.api.get('study/thumbnails', { uuid: study.uuid })).status).toBe(401);
  });

  it("refuses another group's study, a missing session and bad parameters, and audits", async () => {
    const series = await server.ctx.db.kysely
      .selectFrom('series')
      .innerJoin('studies', 'studies.uuid', 'series.study_uuid')
      .select('series.series_uid')
      .where('studies.study_uid', '=', foreignStudyUid)
      .executeTakeFirstOrThrow();
    expect((await get(`/studies/${foreignStudyUid}/series/${series.series_uid}/thumbnail`)).status).toBe(404);
    expect((await get(`/studies/${studyUid}/series/1.2.3.4/thumbnail`)).status).toBe(404);
    const own = `/studies/${studyUid}/series/${ctSeries}/thumbnail`;
    expect((await fetch(`${server.url}/dicomweb${own}`)).status).toBe(401);
    expect((await fetch(`${server.url}/dicomweb${own}?sid=${sid}`)).status).toBe(200);
    expect((await get(`${own}?viewport=0,10`)).status).toBe(400);
    expect((await get(`${own}?viewport=4000,4000`)).status).toBe(400);
    const views = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .innerJoin('studies', 'studies.uuid', 'audit_events.object_id')
      .select('audit_events.detail')
      .where('studies.study_uid', '=', studyUid)
      .select('audit_events.action')
      .where('audit_events.action', 'in', ['STUDY_VIEW', 'THUMBNAIL_VIEW'])
      .execute();
    expect(views.some((v) => v.action === 'THUMBNAIL_VIEW' && v.detail?.includes('wado-rs thumbnail'))).toBe(
      true,
    );
    expect(views.some((v) => v.action === 'STUDY_VIEW' && v.detail?.includes('wado-rs rendered'))).toBe(true);
  });
});
