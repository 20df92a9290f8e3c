import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestSource } from '../../src/ingest/ingest.service.js';
import type { IndexTarget } from '../../src/repositories/ingest.repository.js';
import { BlobReferencesRepository } from '../../src/repositories/blob-references.repository.js';
import { BlobCollector } from '../../src/storage/blob-collector.js';
import { blobKey, type BlobStore } from '../../src/storage/blob-store.js';
import { tinyInstance } from '../support/tiny-instance.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

const GRACE_MS = 10 * 60_000;
const HOUR_MS = 60 * 60_000;

/**
 * The server's blob store as the collector sees it, where a blob the test ages reads as written an
 * hour before its write time until something stores it again. A file's write time can be set back
 * (utimes), an object's cannot (the S3 server sets it), so the test ages blobs here, for both
 * stores alike; writing the same content again (storeBytes, commit) refreshes it as it does there.
 */
function agingView(blobs: BlobStore) {
  const aged = new Set<string>();
  const wrote = (key: string) => {
    aged.delete(key);
    return key;
  };
  const storeBytes = blobs.storeBytes.bind(blobs);
  const commit = blobs.commit.bind(blobs);
  blobs.storeBytes = async (...args) => wrote(await storeBytes(...args));
  blobs.commit = async (...args) => wrote(await commit(...args));
  const view = new Proxy(blobs, {
    get(target, property) {
      if (property === 'stat')
        return async (key: string) => {
          const stat = await target.stat(key);
          return stat && aged.has(key) ? { ...stat, writtenAt: stat.writtenAt - HOUR_MS } : stat;
        };
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { view, age: (key: string) => aged.add(key) };
}

/**
 * The collector removes an unreferenced blob only once nothing wrote it for the grace period, so an
 * ingest of the same bytes that finds the blob already stored (and refreshes its write time) keeps
 * its file even when the collector judges the blob between that ingest's write and its index row.
 */
describe.each(DIALECTS)('blob collector grace period on %s', (dialect) => {
  let server: TestServer;
  let target: IndexTarget;
  let collector: BlobCollector;
  let blobs: BlobStore;
  let age: (key: string) => void;
  let clock = Date.now();
  const source = (): IngestSource => ({ kind: 'cstore', userId: null, fileIsRecord: true });

  beforeAll(async () => {
    server = await startTestServer(dialect, { SEED_STUDIES: '0' });
    const node = (await server.ctx.repos.dicomNodes.findByAeTitle('DEMO_GATEWAY'))!;
    target = { accountId: node.account_id, namespaceId: node.namespace_id, sourceAeTitle: 'DEMO_GATEWAY' };
    blobs = server.ctx.services.blobs;
    const aging = agingView(blobs);
    age = aging.age;
    collector = new BlobCollector(
      aging.view,
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
    age(key!);
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
    expect(await blobs.exists(key)).toBe(false);
    expect(await blobs.read(keptKey)).toEqual(kept);
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
    expect(await blobs.read(key)).toEqual(bytes);

    // Once the grace period is over the pending removal is judged again: referenced now, it stays.
    clock = Date.now() + GRACE_MS + 1_000;
    expect(await collector.sweep()).toBe(0);
    expect(await blobs.read(key)).toEqual(bytes);
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
    expect(await blobs.exists(key!)).toBe(true);
    expect(await pendingRemovals()).toContain(key);
    await server.ctx.services.ingest.ingestBytes(bytes, target, source());
    clock = Date.now() + GRACE_MS + 1_000;
    await collector.sweep();
    expect(await blobs.exists(key!)).toBe(true);
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
    expect(await blobs.exists(key!)).toBe(true);
    clock = Date.now() + GRACE_MS + 1_000;
    expect(await collector.sweep()).toBe(1);
    expect(await blobs.exists(key!)).toBe(false);
    expect(await pendingRemovals()).toEqual([]);
  });
});
