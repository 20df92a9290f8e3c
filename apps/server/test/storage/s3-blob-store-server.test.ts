import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStudySpecs, writeStudyFiles } from '../../src/dicom/index.js';
import { S3BlobStore } from '../../src/storage/s3-blob-store.js';
import { parseMultipart } from '../support/multipart.js';
import type { TestS3 } from '../support/s3-server.js';
import { startTestS3 } from '../support/s3-server.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe.each(DIALECTS)('a server storing its files on S3-compatible storage on %s', (dialect) => {
  let s3: TestS3;
  let server: TestServer;
  let sid: string;
  let work: string;
  const [spec] = generateStudySpecs(1, 4242, { now: new Date('2026-06-01T00:00:00Z') });
  const files = writeStudyFiles(spec!);

  beforeAll(async () => {
    s3 = await startTestS3();
    server = await startTestServer(dialect, s3.env);
    sid = await server.api.login('clinician@demo.local');
    work = fs.mkdtempSync(path.join(os.tmpdir(), 's3-zip-'));
  });
  afterAll(async () => {
    await server?.stop();
    await s3?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('stores uploads in the bucket and nothing under DATA_DIR/blobs', async () => {
    expect(server.ctx.services.blobs).toBeInstanceOf(S3BlobStore);
    const emergency = await server.api.namespaceOf(sid, 'Emergency');
    for (const file of files) {
      const { status, body } = await server.api.upload(sid, emergency, file.bytes);
      expect(status).toBe(202);
      expect(body).toMatchObject({ study_uid: spec!.studyInstanceUid, duplicate: false });
    }
    const instances = await server.ctx.db.kysely
      .selectFrom('instances')
      .innerJoin('studies', 'studies.uuid', 'instances.study_uuid')
      .select(['instances.blob_key', 'instances.sha256'])
      .where('studies.study_uid', '=', spec!.studyInstanceUid)
      .execute();
    expect(instances.map((i) => i.sha256).sort()).toEqual(files.map((f) => sha256(f.bytes)).sort());
    for (const instance of instances) {
      const stored = await server.ctx.services.blobs.read(instance.blob_key);
      expect(sha256(stored)).toBe(instance.sha256);
    }
    expect(fs.existsSync(path.join(server.dataDir, 'blobs'))).toBe(false);
  });

  it('serves the study back through WADO-RS, whole instances and frames (range reads)', async () => {
    const get = (url: string, accept?: string) =>
      fetch(`${server.url}/dicomweb${url}`, {
        headers: { authorization: `Bearer ${sid}`, ...(accept ? { accept } : {}) },
      });
    const response = await get(
      `/studies/${spec!.studyInstanceUid}`,
      'multipart/related; type="application/dicom"',
    );
    expect(response.status).toBe(200);
    const parts = parseMultipart(
      Buffer.from(await response.arrayBuffer()),
      response.headers.get('content-type')!,
    );
    expect(parts.map((p) => sha256(p.bytes)).sort()).toEqual(files.map((f) => sha256(f.bytes)).sort());

    const metadata = (await (await get(`/studies/${spec!.studyInstanceUid}/instances`)).json()) as Record<
      string,
      { Value?: unknown[] }
    >[];
    const i = metadata[0]!;
    const seriesUid = i['0020000E']!.Value![0] as string;
    const sopUid = i['00080018']!.Value![0] as string;
    const frames = await get(
      `/studies/${spec!.studyInstanceUid}/series/${seriesUid}/instances/${sopUid}/frames/1`,
    );
    expect(frames.status).toBe(200);
    const [frame] = parseMultipart(
      Buffer.from(await frames.arrayBuffer()),
      frames.headers.get('content-type')!,
    );
    const rows = i['00280010']!.Value![0] as number;
    const columns = i['00280011']!.Value![0] as number;
    expect(frame!.bytes.length).toBeGreaterThan(0);
    expect(frame!.bytes.length % (rows * columns)).toBe(0);
  });

  it('streams the study as a ZIP with the stored bytes', async () => {
    const study = await server.ctx.db.kysely
      .selectFrom('studies')
      .select(['namespace_id', 'study_uid'])
      .where('study_uid', '=', spec!.studyInstanceUid)
      .executeTakeFirstOrThrow();
    const query = new URLSearchParams({ bundle: 'dicom', phi_namespace: study.namespace_id, sid });
    const response = await fetch(
      `${server.url}/api/v3/storage/study/${study.namespace_id}/${study.study_uid}/download?${query.toString()}`,
    );
    expect(response.status).toBe(200);
    const zip = path.join(work, 'study.zip');
    fs.writeFileSync(zip, Buffer.from(await response.arrayBuffer()));
    execFileSync('unzip', ['-tq', zip]);
    const dir = path.join(work, 'study');
    execFileSync('unzip', ['-q', zip, '-d', dir]);
    const inArchive = (fs.readdirSync(dir, { recursive: true }) as string[])
      .filter((f) => f.startsWith('DICOM/') && fs.statSync(path.join(dir, f)).isFile())
      .map((f) => sha256(fs.readFileSync(path.join(dir, f))));
    expect(inArchive.sort()).toEqual(files.map((f) => sha256(f.bytes)).sort());
  });
});
