/**
 * Resumable uploads with several processes (issue 18): on the object store a session's chunks
 * live beside the blobs, so each chunk, the status and the complete may each land on another
 * process, and the file stored is the one sent, byte for byte.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStudySpecs, writeStudyFiles } from '../../src/dicom/index.js';
import { startTestS3, type TestS3 } from '../support/s3-server.js';
import type { TestServer } from '../support/test-server.js';
import { createPgDatabase, startTestServer } from '../support/test-server.js';

const MB = 1024 * 1024;

async function send(
  url: string,
  sid: string,
  call: string,
  params: Record<string, string | number>,
  body?: Uint8Array,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const query = new URLSearchParams({
    ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
    sid,
  });
  const response = await fetch(`${url}/api/v3/upload/session/${call}?${query.toString()}`, {
    method: body ? 'PUT' : 'POST',
    ...(body ? { headers: { 'content-type': 'application/octet-stream' }, body } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('resumable uploads across processes on one PostgreSQL and one object store', () => {
  let s3: TestS3;
  const servers: TestServer[] = [];

  beforeAll(async () => {
    s3 = await startTestS3();
    const databaseUrl = await createPgDatabase();
    for (const id of ['node-a', 'node-b']) {
      servers.push(
        await startTestServer('postgres', {
          ...s3.env,
          DATABASE_URL: databaseUrl,
          PROCESS_ID: id,
          UPLOAD_MAX_BYTES: String(40 * MB),
        }),
      );
    }
  }, 120_000);
  afterAll(async () => {
    for (const server of servers) await server.stop();
    await s3?.stop();
  });

  it('assembles a file whose chunks went to different processes', async () => {
    const [a, b] = servers as [TestServer, TestServer];
    const sid = await a.api.login('clinician@demo.local');
    const emergency = await a.api.namespaceOf(sid, 'Emergency');
    const [spec] = generateStudySpecs(1, 8801, { now: new Date('2026-06-01T00:00:00Z') });
    const file = writeStudyFiles(spec!, { rows: 512, columns: 512 })[0]!;
    const bytes = file.bytes;
    expect(bytes.byteLength).toBeGreaterThan(MB / 2);

    const created = await send(a.url, sid, 'create', { size: bytes.byteLength, namespace_id: emergency });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = String(created.body.id);
    const size = 200 * 1024;
    let turn = 0;
    for (let offset = 0; offset < bytes.byteLength; offset += size, turn++) {
      const on = turn % 2 === 0 ? a : b;
      const answer = await send(on.url, sid, 'chunk', { id, offset }, bytes.subarray(offset, offset + size));
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.received).toBe(Math.min(offset + size, bytes.byteLength));
    }
    expect(turn).toBeGreaterThan(2);
    // A chunk sent again to the other process (its answer was lost) is answered, not written twice.
    const again = await send(a.url, sid, 'chunk', { id, offset: 0 }, bytes.subarray(0, size));
    expect(again.body.received).toBe(bytes.byteLength);
    const status = await send(b.url, sid, 'status', { id });
    expect(status.body).toMatchObject({ received: bytes.byteLength, size: bytes.byteLength });

    const done = await send(b.url, sid, 'complete', { id });
    expect(done.status, JSON.stringify(done.body)).toBe(202);
    const stored = await b.ctx.db.kysely
      .selectFrom('instances')
      .select(['blob_key'])
      .where('sop_instance_uid', '=', file.sopInstanceUid)
      .executeTakeFirstOrThrow();
    const back = await a.ctx.services.blobs.read(stored.blob_key);
    expect(createHash('sha256').update(back).digest('hex')).toBe(
      createHash('sha256').update(bytes).digest('hex'),
    );
    // Completing again on the other process answers the same, and no chunk object is left.
    const twice = await send(a.url, sid, 'complete', { id });
    expect(twice.body).toEqual(done.body);
    const left = await (
      a.ctx.services.blobs as unknown as {
        listParts(prefix: string): Promise<unknown[]>;
      }
    ).listParts('uploads/');
    expect(left).toEqual([]);
  }, 120_000);
});
