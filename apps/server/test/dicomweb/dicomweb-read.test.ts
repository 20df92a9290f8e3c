import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYDICOM } from '../support/corpus.js';
import type { TestServer } from '../support/test-server.js';
import { parseMultipart } from '../support/multipart.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { largestStudyIn, someStudyUidIn } from '../support/studies.js';

describe.each(DIALECTS)('DICOMweb QIDO-RS and WADO-RS on %s', (dialect) => {
  let server: TestServer;
  let sid: string;
  let study: {
    uuid: string;
    study_uid: string;
    patient_name: string;
    image_count: number;
    series_count: number;
  };
  let foreignStudyUid: string;

  const get = (url: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/dicomweb${url}`, { headers: { authorization: `Bearer ${sid}`, ...headers } });

  beforeAll(async () => {
    server = await startTestServer(dialect);
    sid = await server.api.login('clinician@demo.local');
    study = await largestStudyIn(server.ctx.db, 'Emergency');
    foreignStudyUid = await someStudyUidIn(server.ctx.db, 'PACS Intake');
  });
  afterAll(() => server?.stop());

  it('searches studies with wildcards, date ranges and paging, answering DICOM JSON', async () => {
    const last = study.patient_name.split('^')[0]!;
    const response = await get(`/studies?PatientName=${encodeURIComponent(last.slice(0, 3))}*&limit=50`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/dicom+json');
    const matches = (await response.json()) as Record<string, { Value?: unknown[] }>[];
    expect(matches.map((m) => m['0020000D']!.Value![0])).toContain(study.study_uid);
    for (const m of matches) {
      expect(
        (m['00100010']!.Value![0] as { Alphabetic: string }).Alphabetic.toUpperCase().startsWith(
          last.slice(0, 3).toUpperCase(),
        ),
      ).toBe(true);
    }
    const all = (await (await get('/studies?limit=1000')).json()) as unknown[];
    const page = (await (await get('/studies?limit=2&offset=1')).json()) as unknown[];
    expect(page).toEqual(all.slice(1, 3));
    const noMatch = (await (await get('/studies?StudyDate=19000101-19000102')).json()) as unknown[];
    expect(noMatch).toEqual([]);
    expect((await get('/studies?StudyDate=last-week')).status).toBe(400);
    expect((await get('/studies?limit=0')).status).toBe(400);
  });

  it('lists series and instances with their counts', async () => {
    const series = (await (await get(`/studies/${study.study_uid}/series`)).json()) as Record<
      string,
      { Value?: unknown[] }
    >[];
    expect(series).toHaveLength(study.series_count);
    const instances = (await (await get(`/studies/${study.study_uid}/instances`)).json()) as Record<
      string,
      { Value?: unknown[] }
    >[];
    expect(instances).toHaveLength(study.image_count);
    const firstSeries = series[0]!['0020000E']!.Value![0] as string;
    const inSeries = (await (
      await get(`/studies/${study.study_uid}/series/${firstSeries}/instances`)
    ).json()) as unknown[];
    expect(inSeries).toHaveLength(series[0]!['00201209']!.Value![0] as number);
  });

  it('retrieves a study as multipart/related with the stored bytes of every instance', async () => {
    const response = await get(`/studies/${study.study_uid}`);
    expect(response.status).toBe(200);
    const parts = parseMultipart(
      Buffer.from(await response.arrayBuffer()),
      response.headers.get('content-type')!,
    );
    expect(parts).toHaveLength(study.image_count);
    const stored = await server.ctx.db.kysely
      .selectFrom('instances')
      .select('sha256')
      .where('study_uuid', '=', study.uuid)
      .execute();
    const hashes = parts.map((p) => createHash('sha256').update(p.bytes).digest('hex')).sort();
    expect(hashes).toEqual(stored.map((s) => s.sha256).sort());
    expect(parts[0]!.headers).toContain('Content-Type: application/dicom');
  });

  it('answers metadata with the header and a bulk data link for the pixels', async () => {
    const metadata = (await (await get(`/studies/${study.study_uid}/metadata`)).json()) as Record<
      string,
      { vr: string; Value?: unknown[]; BulkDataURI?: string }
    >[];
    expect(metadata).toHaveLength(study.image_count);
    expect((metadata[0]!['00100010']!.Value![0] as { Alphabetic: string }).Alphabetic).toBe(
      study.patient_name,
    );
    expect(metadata[0]!['7FE00010']!.BulkDataURI).toMatch(/\/frames\/1$/);
  });

  it('returns raw frames in the stored transfer syntax, native and JPEG', async () => {
    const instances = (await (await get(`/studies/${study.study_uid}/instances`)).json()) as Record<
      string,
      { Value?: unknown[] }
    >[];
    const i = instances[0]!;
    const seriesUid = i['0020000E']!.Value![0] as string;
    const sopUid = i['00080018']!.Value![0] as string;
    const url = `/studies/${study.study_uid}/series/${seriesUid}/instances/${sopUid}/frames/1`;
    const response = await get(url);
    expect(response.status).toBe(200);
    const [frame] = parseMultipart(
      Buffer.from(await response.arrayBuffer()),
      response.headers.get('content-type')!,
    );
    const rows = i['00280010']!.Value![0] as number;
    const columns = i['00280011']!.Value![0] as number;
    expect(frame!.bytes.length % (rows * columns)).toBe(0);
    expect(frame!.headers).toContain('transfer-syntax=1.2.840.10008.1.2.1');
    expect((await get(url.replace(/frames\/1$/, 'frames/99'))).status).toBe(404);
    expect((await get(url.replace(/frames\/1$/, 'frames/0'))).status).toBe(400);

    const emergency = await server.api.namespaceOf(sid, 'Emergency');
    const jpeg = await server.api.upload(
      sid,
      emergency,
      fs.readFileSync(path.join(PYDICOM, 'SC_rgb_jpeg_dcmtk.dcm')),
    );
    expect(jpeg.status).toBe(202);
    const jpegFrame = await get(
      `/studies/${jpeg.body.study_uid}/series/${jpeg.body.series_uid}/instances/${jpeg.body.sop_instance_uid}/frames/1`,
    );
    expect(jpegFrame.headers.get('content-type')).toContain('image/jpeg');
    const [jpegPart] = parseMultipart(
      Buffer.from(await jpegFrame.arrayBuffer()),
      jpegFrame.headers.get('content-type')!,
    );
    expect([...jpegPart!.bytes.subarray(0, 2)]).toEqual([0xff, 0xd8]); // JPEG start-of-image marker
  });

  it("refuses another group's study like an unknown one, a missing session, and audits access", async () => {
    expect((await get(`/studies/${foreignStudyUid}`)).status).toBe(404);
    expect((await get(`/studies/${foreignStudyUid}/series`)).status).toBe(404);
    expect((await get('/studies/1.2.3.4.5.6')).status).toBe(404);
    const foreign = (await (await get(`/studies?StudyInstanceUID=${foreignStudyUid}`)).json()) as unknown[];
    expect(foreign).toEqual([]);
    expect((await fetch(`${server.url}/dicomweb/studies`)).status).toBe(401);
    expect((await fetch(`${server.url}/dicomweb/studies?sid=${sid}`)).status).toBe(200);
    const views = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select('detail')
      .where('object_id', '=', study.uuid)
      .where('action', '=', 'STUDY_VIEW')
      .execute();
    expect(views.some((v) => v.detail?.includes('wado-rs'))).toBe(true);
  });
});
