import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/dialect.js';
import type { Db } from '../../src/db/dialect.js';
import { buildInstance, newUid } from '../../src/dicom/index.js';
import type { IndexTarget } from '../../src/repositories/ingest.repository.js';
import { blobKey } from '../../src/storage/blob-store.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';
import { cstoreSource, gatewayTarget } from '../support/gateway-ingest.js';

/**
 * A received instance's index statements run while its file is still being written and synced, so
 * the commit must wait for the file: a row may never be visible (to another connection) before its
 * file is durable, and a file that fails to become durable leaves no row. The disk cannot be made
 * slow or failing here, so the blob store's write is held back or failed in front of the real one.
 */
describe.each(DIALECTS)('a C-STORE index commit waits for its file on %s', (dialect) => {
  let server: TestServer;
  let reader: Db;
  let target: IndexTarget;

  beforeAll(async () => {
    server = await startTestServer(dialect, { SEED_STUDIES: '0' });
    // A second connection, as any other request's reads would see the index.
    reader = openDatabase({ dataDir: server.dataDir, databaseUrl: server.ctx.config.databaseUrl });
    target = await gatewayTarget(server);
  });
  afterAll(async () => {
    await reader?.close();
    await server?.stop();
  });

  /** The next storeBytes waits for `gate()` before writing (or fails with it). */
  function holdNextWrite(gate: () => Promise<void>): Promise<void> {
    const blobs = server.ctx.services.blobs;
    const original = blobs.storeBytes.bind(blobs);
    return new Promise((reached) => {
      blobs.storeBytes = async (bytes, sha256) => {
        blobs.storeBytes = original;
        reached();
        await gate();
        return original(bytes, sha256);
      };
    });
  }

  const instanceRows = (sopInstanceUid: string) =>
    reader.kysely
      .selectFrom('instances')
      .select('blob_key')
      .where('sop_instance_uid', '=', sopInstanceUid)
      .execute();

  function newInstance(): { bytes: Buffer; sopInstanceUid: string; studyUid: string } {
    const sopInstanceUid = newUid();
    const studyUid = newUid();
    const bytes = Buffer.from(
      buildInstance({
        patientName: 'ORDER^TEST',
        patientId: `ORDER-${sopInstanceUid.slice(-6)}`,
        patientSex: 'O',
        patientBirthDate: '19700101',
        studyInstanceUid: studyUid,
        studyDate: '20260101',
        studyTime: '120000',
        studyDescription: 'commit order',
        accessionNumber: '',
        referringPhysician: '',
        institutionName: 'Test',
        seriesDescription: 'one',
        modality: 'CT',
        bodyPart: 'HEAD',
        seriesInstanceUid: newUid(),
        seriesNumber: 1,
        sopInstanceUid,
        instanceNumber: 1,
        rows: 16,
        columns: 16,
      }),
    );
    return { bytes, sopInstanceUid, studyUid };
  }

  it('keeps the row invisible until the file is written, then commits it', async () => {
    const { bytes, sopInstanceUid } = newInstance();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const reached = holdNextWrite(() => gate);
    const ingesting = server.ctx.services.ingest.ingestBytes(bytes, target, cstoreSource());
    await reached;
    // Give the index statements time to run and reach the wait.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await instanceRows(sopInstanceUid)).toEqual([]);
    release();
    const result = await ingesting;
    expect(result.duplicate).toBe(false);
    const rows = await instanceRows(sopInstanceUid);
    expect(rows).toHaveLength(1);
    expect(await server.ctx.services.blobs.read(rows[0]!.blob_key)).toEqual(bytes);
  });

  it('leaves no row, no study and no file when the file cannot be made durable', async () => {
    const { bytes, sopInstanceUid, studyUid } = newInstance();
    const reached = holdNextWrite(() =>
      Promise.reject(Object.assign(new Error('disk full'), { code: 'ENOSPC' })),
    );
    await expect(server.ctx.services.ingest.ingestBytes(bytes, target, cstoreSource())).rejects.toThrow(
      'disk full',
    );
    await reached;
    expect(await instanceRows(sopInstanceUid)).toEqual([]);
    const studies = await reader.kysely
      .selectFrom('studies')
      .select('uuid')
      .where('study_uid', '=', studyUid)
      .execute();
    expect(studies).toEqual([]);
    const key = blobKey(createHash('sha256').update(bytes).digest('hex'));
    expect(await server.ctx.services.blobs.exists(key)).toBe(false);
    // The connection is usable afterwards: the next instance goes in.
    const next = newInstance();
    await server.ctx.services.ingest.ingestBytes(next.bytes, target, cstoreSource());
    expect(await instanceRows(next.sopInstanceUid)).toHaveLength(1);
  });
});
