import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStudySpecs, writeStudyFiles } from '../../src/dicom/index.js';
import { demoWorld } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { ingestState } from '../support/ingest-state.js';

const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';

describe.each(DIALECTS)('single-file upload through the ingest pipeline on %s', (dialect) => {
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

  const countRows = () => ingestState(server);

  it('stores a generated multi-series study, answers 202 with its uids, and indexes it once', async () => {
    const [spec] = generateStudySpecs(1, 777, { now: new Date('2026-06-01T00:00:00Z') });
    const files = writeStudyFiles(spec!);
    let studyUuid = '';
    for (const file of files) {
      const { status, body } = await server.api.upload(sid, emergency, file.bytes);
      expect(status).toBe(202);
      expect(body).toMatchObject({
        status: 'OK',
        study_uid: spec!.studyInstanceUid,
        sop_instance_uid: file.sopInstanceUid,
        duplicate: false,
      });
      studyUuid = body.study_uuid;
    }
    const study = await server.api.get('study/get', { sid, uuid: studyUuid });
    expect(study.body).toMatchObject({
      patient_name: spec!.patientName,
      patientid: spec!.patientId,
      accession_number: spec!.accessionNumber,
      image_count: files.length,
      series_count: spec!.series.length,
    });
    expect(study.body.size).toBe(files.reduce((n, f) => n + f.bytes.byteLength, 0));
    const created = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select('action')
      .where('object_id', '=', studyUuid)
      .where('action', '=', 'CREATE')
      .execute();
    expect(created).toHaveLength(1);
  });

  it('stores the same instance once and answers duplicate on the second upload', async () => {
    const bytes = fs.readFileSync(path.join(PYDICOM, 'CT_small.dcm'));
    const first = await server.api.upload(sid, emergency, bytes);
    const before = await countRows();
    const second = await server.api.upload(sid, emergency, bytes);
    expect(first.status).toBe(202);
    expect(second.body.duplicate).toBe(true);
    expect(second.body.study_uuid).toBe(first.body.study_uuid);
    expect(await countRows()).toEqual(before);
  });

  it('accepts a multipart field named file', async () => {
    const form = new FormData();
    form.set('file', new Blob([fs.readFileSync(path.join(PYDICOM, 'MR_small.dcm'))]), 'MR_small.dcm');
    const response = await fetch(`${server.url}/api/v3/storage/namespace/${emergency}/image?sid=${sid}`, {
      method: 'POST',
      body: form,
    });
    expect(response.status).toBe(202);
    expect(((await response.json()) as { study_uid: string }).study_uid).toMatch(/^[0-9.]+$/);
  });

  it('refuses bad bodies with a stable error type, leaving no rows and no stray files', async () => {
    const [spec] = generateStudySpecs(1, 4242, { now: new Date('2026-06-01T00:00:00Z') });
    const good = writeStudyFiles(spec!)[0]!.bytes;
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-bad-'));
    const noSop = path.join(tmp, 'no-sop.dcm');
    fs.writeFileSync(noSop, good);
    execFileSync('dcmodify', ['-nb', '-ea', '(0008,0018)', noSop]);
    const before = await countRows();
    const cases: [string, Uint8Array, string, number][] = [
      ['empty', new Uint8Array(0), 'FILE_CONTENT_EMPTY', 412],
      ['text', new TextEncoder().encode('hello, this is not DICOM at all'.repeat(10)), 'INVALID_DICOM', 412],
      ['truncated', good.slice(0, Math.floor(good.byteLength / 2)), 'INVALID_DICOM', 412],
      ['no SOP Instance UID', fs.readFileSync(noSop), 'TAG_NOT_FOUND', 412],
      ['oversized', new Uint8Array(600 * 1024), 'FILE_TOO_LARGE', 413],
    ];
    for (const [name, bytes, errorType, status] of cases) {
      const answer = await server.api.upload(sid, emergency, bytes);
      expect(answer.status, name).toBe(status);
      expect(answer.body.error_type, name).toBe(errorType);
    }
    expect(await countRows()).toEqual(before);
    expect((await countRows()).temps).toBe(0);
    fs.rmSync(tmp, { recursive: true, force: true });
    // The process keeps serving.
    expect((await server.api.get('session/user', { sid })).status).toBe(200);
  });

  it('refuses uploads without study_upload, into a foreign namespace, or without a session', async () => {
    const bytes = fs.readFileSync(path.join(PYDICOM, 'CT_small.dcm'));
    const viewer = await server.api.login('viewer@demo.local');
    expect((await server.api.upload(viewer, emergency, bytes)).body.error_type).toBe('NOT_PERMITTED');
    expect((await server.api.upload(sid, intake, bytes)).body.error_type).toBe('NOT_FOUND');
    expect((await server.api.upload('forged', emergency, bytes)).status).toBe(401);
  });
});
