import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUid } from '../../src/dicom/index.js';
import type { IndexTarget } from '../../src/repositories/ingest.repository.js';
import { startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';
import { cstoreSource, gatewayTarget } from '../support/gateway-ingest.js';
import { seriesInstance } from '../support/series-instance.js';

/**
 * Instances of one study indexed at the same time on PostgreSQL, where several associations (and
 * several server processes) each have a connection of their own. A received instance's index
 * transaction waits for its file before it commits (an object store's PUT can take tens of ms):
 * that wait must not hold up the study's other instances, and two instances that bring the same
 * new series must both be stored. The file write is held back in front of the real blob store.
 * SQLite has one writer, so there is no such concurrency to check there.
 */
describe('instances of one study indexed concurrently on postgres', () => {
  let server: TestServer;
  let target: IndexTarget;

  beforeAll(async () => {
    server = await startTestServer('postgres', { SEED_STUDIES: '0' });
    target = await gatewayTarget(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** The next storeBytes waits for the returned release() before writing; `reached` once it is waiting. */
  function holdNextWrite(): { reached: Promise<void>; release: () => void } {
    const blobs = server.ctx.services.blobs;
    const original = blobs.storeBytes.bind(blobs);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const reached = new Promise<void>((resolve) => {
      blobs.storeBytes = async (bytes, sha256) => {
        blobs.storeBytes = original;
        resolve();
        await gate;
        return original(bytes, sha256);
      };
    });
    return { reached, release };
  }

  const instance = (studyUid: string, seriesUid: string, n: number): Buffer =>
    seriesInstance('concurrent index', studyUid, seriesUid, n);

  const ingest = (bytes: Buffer) => server.ctx.services.ingest.ingestBytes(bytes, target, cstoreSource());

  /** Whether `work` settles within `ms` (it is left running either way). */
  const settlesWithin = (work: Promise<unknown>, ms: number) =>
    Promise.race([
      work.then(
        () => true,
        () => true,
      ),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
    ]);

  const bySeriesUid = (a: (string | number)[], b: (string | number)[]) => (a[0]! < b[0]! ? -1 : 1);

  async function counts(studyUid: string) {
    const db = server.ctx.db.kysely;
    const study = await db
      .selectFrom('studies')
      .select(['uuid', 'image_count', 'series_count', 'size'])
      .where('study_uid', '=', studyUid)
      .executeTakeFirstOrThrow();
    const series = await db
      .selectFrom('series')
      .select(['series_uid', 'image_count', 'size'])
      .where('study_uuid', '=', study.uuid)
      .execute();
    const instances = await db
      .selectFrom('instances')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('size').as('bytes')])
      .where('study_uuid', '=', study.uuid)
      .executeTakeFirstOrThrow();
    return {
      images: Number(study.image_count),
      seriesCount: Number(study.series_count),
      series: series.map((s) => [s.series_uid, Number(s.image_count)]).sort(bySeriesUid),
      instances: Number(instances.n),
      // The study's and its series' byte counters add up to what their instance rows hold.
      bytesInStep:
        Number(instances.bytes) > 0 &&
        Number(study.size) === Number(instances.bytes) &&
        series.reduce((sum, s) => sum + Number(s.size), 0) === Number(instances.bytes),
    };
  }

  it('stores another instance of the study while one instance still waits for its file', async () => {
    const [studyUid, seriesUid] = [newUid(), newUid()];
    await ingest(instance(studyUid, seriesUid, 1));
    const held = holdNextWrite();
    const first = ingest(instance(studyUid, seriesUid, 2));
    await held.reached;
    // Let the held instance's index statements run up to the wait for its file.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = ingest(instance(studyUid, seriesUid, 3));
    const secondDone = await settlesWithin(second, 5_000);
    held.release();
    await Promise.all([first, second]);
    expect(secondDone).toBe(true);
    expect(await counts(studyUid)).toEqual({
      images: 3,
      seriesCount: 1,
      series: [[seriesUid, 3]],
      instances: 3,
      bytesInStep: true,
    });
  });

  it('stores both instances that bring the same new series at the same time', async () => {
    const [studyUid, seriesA, seriesB] = [newUid(), newUid(), newUid()];
    await ingest(instance(studyUid, seriesA, 1));
    const held = holdNextWrite();
    const first = ingest(instance(studyUid, seriesB, 2));
    await held.reached;
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Its series row waits on the held one's uncommitted row, then finds it.
    const second = ingest(instance(studyUid, seriesB, 3));
    await new Promise((resolve) => setTimeout(resolve, 200));
    held.release();
    const results = await Promise.allSettled([first, second]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(await counts(studyUid)).toEqual({
      images: 3,
      seriesCount: 2,
      series: [
        [seriesA, 1],
        [seriesB, 2],
      ].sort(bySeriesUid),
      instances: 3,
      bytesInStep: true,
    });
  });
});
