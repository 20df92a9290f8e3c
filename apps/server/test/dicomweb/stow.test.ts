import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStudySpecs, writeStudyFiles } from '../../src/dicom/index.js';
import { demoWorld } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';
const BOUNDARY = 'stow-boundary-7f3a';
const RELATED = `multipart/related; type="application/dicom"; boundary=${BOUNDARY}`;

type JsonDataset = Record<string, { vr: string; Value?: any[] }>;

function multipart(parts: Uint8Array[], boundary = BOUNDARY): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Type: application/dicom\r\n\r\n`),
      Buffer.from(part),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

describe.each(DIALECTS)('STOW-RS on %s', (dialect) => {
  let server: TestServer;
  let sid: string;
  let emergency: string;
  let intake: string;

  beforeAll(async () => {
    server = await startTestServer(dialect, { UPLOAD_MAX_BYTES: String(512 * 1024) });
    const world = await demoWorld(server, ['admin', 'clinician']);
    sid = world.sid.clinician;
    emergency = world.groups['Emergency']!.namespace_id;
    intake = world.groups['PACS Intake']!.namespace_id;
  });
  afterAll(() => server?.stop());

  const stow = async (
    body: Uint8Array,
    o: { namespace?: string; study?: string; contentType?: string; bearer?: string; sid?: string } = {},
  ) => {
    const query = new URLSearchParams({ namespace: o.namespace ?? emergency });
    if (o.sid !== undefined) query.set('sid', o.sid);
    const headers: Record<string, string> = {
      'content-type': o.contentType ?? RELATED,
      accept: 'application/dicom+json',
    };
    if (o.sid === undefined) headers['authorization'] = `Bearer ${o.bearer ?? sid}`;
    const url = `${server.url}/dicomweb/studies${o.study ? `/${o.study}` : ''}?${query.toString()}`;
    const response = await fetch(url, { method: 'POST', headers, body });
    const text = await response.text();
    return {
      status: response.status,
      type: response.headers.get('content-type') ?? '',
      body: (text ? JSON.parse(text) : null) as JsonDataset,
    };
  };

  const instanceCount = async () =>
    Number(
      (
        await server.ctx.db.kysely
          .selectFrom('instances')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('stores good instances, reports the bad one in FailedSOPSequence and answers 202', async () => {
    const [spec] = generateStudySpecs(1, 5150, { now: new Date('2026-04-01T00:00:00Z') });
    const [a, b] = writeStudyFiles(spec!);
    const bad = new TextEncoder().encode('this is not a DICOM file'.repeat(20));
    const before = await instanceCount();
    const answer = await stow(multipart([a!.bytes, bad, b!.bytes]));
    expect(answer.status).toBe(202);
    expect(answer.type).toMatch(/^application\/dicom\+json/);
    const referenced = answer.body['00081199']!.Value!;
    expect(referenced.map((r: JsonDataset) => r['00081155']!.Value![0])).toEqual([
      a!.sopInstanceUid,
      b!.sopInstanceUid,
    ]);
    expect(referenced[0]['00081190'].Value[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(referenced[0]['00081190'].Value[0]).toContain(
      `/dicomweb/studies/${spec!.studyInstanceUid}/series/${spec!.series[0]!.seriesInstanceUid}/instances/${a!.sopInstanceUid}`,
    );
    const failed = answer.body['00081198']!.Value!;
    expect(failed).toHaveLength(1);
    expect(failed[0]['00081197']).toEqual({ vr: 'US', Value: [0xc000] });
    expect(await instanceCount()).toBe(before + 2);

    const { body } = await server.api.call(
      'study/list',
      { 'filter.study_uid.equals': spec!.studyInstanceUid },
      sid,
    );
    expect(body.studies).toHaveLength(1);
    expect(body.studies[0]).toMatchObject({ phi_namespace: emergency, image_count: 2 });
  });

  it('answers 200 when all are stored (sid as query parameter), and 409 when none is', async () => {
    const ct = fs.readFileSync(path.join(PYDICOM, 'CT_small.dcm'));
    const mr = fs.readFileSync(path.join(PYDICOM, 'MR_small.dcm'));
    const ok = await stow(multipart([ct, mr]), { sid });
    expect(ok.status).toBe(200);
    expect(ok.body['00081199']!.Value).toHaveLength(2);
    expect(ok.body['00081198']).toBeUndefined();

    const before = await instanceCount();
    const none = await stow(multipart([new Uint8Array(0), ct.subarray(0, 5000)]));
    expect(none.status).toBe(409);
    expect(none.body['00081198']!.Value!.map((f: JsonDataset) => f['00081197']!.Value![0])).toEqual([
      0xc000, 0xc000,
    ]);
    expect(await instanceCount()).toBe(before);
  });

  it('stores into /studies/{study} only the instances of that study', async () => {
    const [one, two] = generateStudySpecs(2, 8080, { now: new Date('2026-04-01T00:00:00Z') });
    const [mine] = writeStudyFiles(one!);
    const [other] = writeStudyFiles(two!);
    const answer = await stow(multipart([mine!.bytes, other!.bytes]), { study: one!.studyInstanceUid });
    expect(answer.status).toBe(202);
    expect(answer.body['00081190']!.Value![0]).toMatch(
      new RegExp(`/dicomweb/studies/${one!.studyInstanceUid}$`),
    );
    expect(answer.body['00081199']!.Value![0]['00081155'].Value[0]).toBe(mine!.sopInstanceUid);
    expect(answer.body['00081198']!.Value![0]['00081155'].Value[0]).toBe(other!.sopInstanceUid);
    const stored = await server.ctx.db.kysely
      .selectFrom('instances')
      .select('uuid')
      .where('sop_instance_uid', '=', other!.sopInstanceUid)
      .executeTakeFirst();
    expect(stored).toBeUndefined();
  });

  it('refuses an oversized part with Out of Resources and keeps the others', async () => {
    const ct = fs.readFileSync(path.join(PYDICOM, 'MR_small.dcm'));
    const answer = await stow(multipart([new Uint8Array(600 * 1024), ct]));
    expect(answer.status).toBe(202);
    expect(answer.body['00081198']!.Value![0]['00081197'].Value[0]).toBe(0xa700);
  });

  it('refuses a wrong content type (415), a bad session (401), no upload right or an unseen group', async () => {
    const ct = fs.readFileSync(path.join(PYDICOM, 'CT_small.dcm'));
    const body = multipart([ct]);
    const before = await instanceCount();
    expect((await stow(body, { contentType: 'application/json' })).status).toBe(415);
    expect((await stow(body, { contentType: `multipart/form-data; boundary=${BOUNDARY}` })).status).toBe(415);
    expect(
      (
        await stow(body, {
          contentType: `multipart/related; type="application/dicom+json"; boundary=${BOUNDARY}`,
        })
      ).status,
    ).toBe(415);
    expect((await stow(body, { bearer: 'forged' })).status).toBe(401);
    expect((await stow(body, { sid: 'forged' })).status).toBe(401);
    const viewer = await server.api.login('viewer@demo.local');
    expect((await stow(body, { bearer: viewer })).status).toBe(403);
    expect((await stow(body, { namespace: intake })).status).toBe(404);
    expect((await stow(body, { namespace: 'no-such-group' })).status).toBe(404);
    expect(await instanceCount()).toBe(before);
    expect(fs.readdirSync(path.join(server.dataDir, 'tmp'))).toEqual([]);
  });

  it('answers 400 for a body without its closing boundary, keeping no temp files', async () => {
    const ct = fs.readFileSync(path.join(PYDICOM, 'CT_small.dcm'));
    const body = multipart([ct]).subarray(0, 3000);
    expect((await stow(body)).status).toBe(400);
    expect(fs.readdirSync(path.join(server.dataDir, 'tmp'))).toEqual([]);
  });
});
