import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestSource } from '../../src/ingest/ingest.service.js';
import type { IndexTarget } from '../../src/repositories/ingest.repository.js';
import { BlobReferencesRepository } from '../../src/repositories/blob-references.repository.js';
import { BlobCollector } from '../../src/storage/blob-collector.js';
import { blobKey } from '../../src/storage/blob-store.js';
import { storedFile } from '../support/blob-files.js';
import { tinyInstance } from '../support/tiny-instance.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

const GRACE_MS = 10 * 60_000;

/**
 * The collector removes an unreferenced blob only once nothing wrote it for the grace period, so an
 * ingest of the same bytes that finds the blob already stored (and refreshes its write time) keeps
 * its file even when the collector judges the blob between that ingest's write and its index row.
 */
describe.each(DIALECTS)('blob collector grace period on %s', (dialect) => {
  let server: TestServer;
  let target: IndexTarget;
  let collector: BlobCollector;
  let clock = Date.now();
  const source = (): IngestSource => ({ kind: 'cstore', userId: null, fileIsRecord: true });

  beforeAll(async () => {
    server = await startTestServer(dialect, { SEED_STUDIES: '0' });
    const node = (await server.ctx.repos.dicomNodes.findByAeTitle('DEMO_GATEWAY'))!;
    target = { accountId: node.account_id, namespaceId: node.namespace_id, sourceAeTitle: 'DEMO_GATEWAY' };
    collector = new BlobCollector(
      server.ctx.services.blobs,
      new BlobReferencesRepository(server.ctx.db.kysely),
      GRACE_MS,
      () => clock,
    );
  });
  afterAll(async () => {
    await server?.stop();
  });

  const newInstance = () =>
    tinyInstance({ patientName: 'GRACE^TEST', patientId: 'GRACE-1', studyDescription: 'collector race' });

  /** Stores and indexes the bytes, then removes the study's rows: an unreferenced blob written an hour ago. */
  async function orphanedHourAgo(bytes: Buffer): Promise<string> {
    const { studyUuid } = await server.ctx.services.ingest.ingestBytes(bytes, target, source());
    const [key] = await server.ctx.repos.purge.removeStudy(studyUuid);
    expect(key).toBe(blobKey(createHash('sha256').update(bytes).digest('hex')));
    const hourAgo = new Date(Date.now() - 60 * 60_000);
    fs.utimesSync(storedFile(server, key!), hourAgo, hourAgo);
    return key!;
  }

  const pendingRemovals = async () =>
    (await server.ctx.db.kysely.selectFrom('blob_removals').select('blob_key').execute()).map(
      (r) => r.blob_key,
    );

  it('removes an unreferenced blob nothing wrote lately, and keeps a referenced one', async () => {
    clock = Date.now();
    const key = await orphanedHourAgo(newInstance());
    const kept = newInstance();
    await server.ctx.services.ingest.ingestBytes(kept, target, source());
    const keptKey = blobKey(createHash('sha256').update(kept).digest('hex'));
    expect(await collector.removeUnreferenced([key, keptKey])).toBe(1);
    expect(fs.existsSync(storedFile(server, key))).toBe(false);
    expect(fs.readFileSync(storedFile(server, keptKey))).toEqual(kept);
  });

  it('keeps the file of an identical ingest that indexes it while the collector runs', async () => {
    clock = Date.now();
    const bytes = newInstance();
    const key = await orphanedHourAgo(bytes);

    // The same instance arrives again (say sent anew after the purge) and is held after it found
    // the blob stored, before its index row is written: the collector runs in that window.
    const repo = server.ctx.repos.ingest;
    const indexInstance = repo.indexInstance.bind(repo);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const reached = new Promise<void>((resolve) => {
      repo.indexInstance = async (...args) => {
        repo.indexInstance = indexInstance;
        // The index commits once the file is durable: the window is from there to the commit.
        await args[5]?.fileDurable;
        resolve();
        await gate;
        return indexInstance(...args);
      };
    });
    const ingesting = server.ctx.services.ingest.ingestBytes(bytes, target, source());
    await reached;
    expect(await collector.removeUnreferenced([key])).toBe(0);
    expect(await pendingRemovals()).toEqual([key]);
    release();
    expect((await ingesting).duplicate).toBe(false);
    expect(fs.readFileSync(storedFile(server, key))).toEqual(bytes);

    // Once the grace period is over the pending removal is judged again: referenced now, it stays.
    clock = Date.now() + GRACE_MS + 1_000;
    expect(await collector.sweep()).toBe(0);
    expect(fs.readFileSync(storedFile(server, key))).toEqual(bytes);
    expect(await pendingRemovals()).toEqual([]);
  });

  it('keeps a blob a failed ingest gives up while another writer of the same bytes may still index it', async () => {
    clock = Date.now();
    const bytes = newInstance();
    const { studyUuid } = await server.ctx.services.ingest.ingestBytes(bytes, target, source());
    const [key] = await server.ctx.repos.purge.removeStudy(studyUuid);
    // A failed ingest gives the blob up while a second process, which wrote the same content just
    // now, has not committed its row yet: the blob must still be there when that row lands.
    await collector.discardWritten(key!);
    expect(fs.existsSync(storedFile(server, key!))).toBe(true);
    expect(await pendingRemovals()).toContain(key);
    await server.ctx.services.ingest.ingestBytes(bytes, target, source());
    clock = Date.now() + GRACE_MS + 1_000;
    await collector.sweep();
    expect(fs.existsSync(storedFile(server, key!))).toBe(true);
    expect(await pendingRemovals()).not.toContain(key);
  });

  it('defers an unreferenced blob written within the grace period, and removes it after', async () => {
    clock = Date.now();
    const bytes = newInstance();
    const { studyUuid } = await server.ctx.services.ingest.ingestBytes(bytes, target, source());
    const [key] = await server.ctx.repos.purge.removeStudy(studyUuid);
    expect(await collector.removeUnreferenced([key!])).toBe(0);
    expect(await pendingRemovals()).toEqual([key]);
    expect(await collector.sweep()).toBe(0);
    expect(fs.existsSync(storedFile(server, key!))).toBe(true);
    clock = Date.now() + GRACE_MS + 1_000;
    expect(await collector.sweep()).toBe(1);
    expect(fs.existsSync(storedFile(server, key!))).toBe(false);
    expect(await pendingRemovals()).toEqual([]);
  });
});
