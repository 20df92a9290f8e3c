import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/dialect.js';
import type { Db } from '../../src/db/dialect.js';
import { newUid, readDicomHeader } from '../../src/dicom/index.js';
import type { IndexTarget, IngestRepository } from '../../src/repositories/ingest.repository.js';
import { blobKey } from '../../src/storage/blob-store.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';
import { cstoreSource, gatewayTarget } from '../support/gateway-ingest.js';
import { seriesInstance } from '../support/series-instance.js';

const instanceBytes = (studyUid: string, seriesUid: string, n: number): Buffer =>
  seriesInstance('group commit', studyUid, seriesUid, n);

async function studyCounts(db: Db, studyUid: string) {
  const study = await db.kysely
    .selectFrom('studies')
    .select(['uuid', 'image_count', 'series_count', 'size'])
    .where('study_uid', '=', studyUid)
    .executeTakeFirstOrThrow();
  const series = await db.kysely
    .selectFrom('series')
    .select(['image_count', 'size'])
    .where('study_uuid', '=', study.uuid)
    .execute();
  const instances = await db.kysely
    .selectFrom('instances')
    .select(['sop_instance_uid', 'size'])
    .where('study_uuid', '=', study.uuid)
    .execute();
  return {
    uuid: study.uuid,
    images: Number(study.image_count),
    seriesCount: Number(study.series_count),
    size: Number(study.size),
    series: series.map((s) => [Number(s.image_count), Number(s.size)]),
    sops: new Set(instances.map((i) => i.sop_instance_uid)),
    instanceBytes: instances.reduce((sum, i) => sum + Number(i.size), 0),
  };
}

/**
 * Several associations sending into one series at once (decision 0080): on SQLite the rows of the
 * instances that wait for the connection commit together; on PostgreSQL each has its own
 * transaction. Either way every instance is listed once and the counters add up.
 */
describe.each(DIALECTS)('concurrent associations into one series on %s', (dialect) => {
  let server: TestServer;
  let target: IndexTarget;

  beforeAll(async () => {
    server = await startTestServer(dialect, { SEED_STUDIES: '0' });
    target = await gatewayTarget(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('lists every instance once, with the study and series counters equal to its rows', async () => {
    const [studyUid, seriesUid] = [newUid(), newUid()];
    const associations = 4;
    const perAssociation = 12;
    const sent: string[] = [];
    let bytesSent = 0;
    // Each association sends its instances one after another, as a storescu waits for each answer.
    const sends = Array.from({ length: associations }, async (_, a) => {
      const source = cstoreSource();
      for (let i = 0; i < perAssociation; i++) {
        const bytes = instanceBytes(studyUid, seriesUid, a * perAssociation + i);
        bytesSent += bytes.byteLength;
        const result = await server.ctx.services.ingest.ingestBytes(bytes, target, source);
        expect(result.duplicate).toBe(false);
        sent.push(result.parsed.sopInstanceUid);
      }
    });
    await Promise.all(sends);
    const counts = await studyCounts(server.ctx.db, studyUid);
    const total = associations * perAssociation;
    expect(counts.sops).toEqual(new Set(sent));
    expect(counts.sops.size).toBe(total);
    expect(counts.images).toBe(total);
    expect(counts.seriesCount).toBe(1);
    expect(counts.series).toEqual([[total, bytesSent]]);
    expect(counts.size).toBe(bytesSent);
    expect(counts.instanceBytes).toBe(bytesSent);
    // Each association's first instance of the study writes its one event: one created the study.
    const events = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select('action')
      .where('object_id', '=', counts.uuid)
      .execute();
    expect(events.map((e) => e.action).sort()).toEqual(['CREATE', 'IMAGE_ADD', 'IMAGE_ADD', 'IMAGE_ADD']);
  });
});

/**
 * The shared transaction itself, on SQLite, driven through the repository with each instance's
 * file durability held or given, so that which rows share a batch does not depend on timing.
 */
describe('rows that wait for the connection share one commit on sqlite', () => {
  let server: TestServer;
  let reader: Db;
  let target: IndexTarget;
  let repo: IngestRepository;

  beforeAll(async () => {
    server = await startTestServer('sqlite', { SEED_STUDIES: '0' });
    reader = openDatabase({ dataDir: server.dataDir });
    target = await gatewayTarget(server);
    repo = server.ctx.repos.ingest;
  });
  afterAll(async () => {
    await reader?.close();
    await server?.stop();
  });

  async function parsedInstance(studyUid: string, seriesUid: string, n: number) {
    const bytes = instanceBytes(studyUid, seriesUid, n);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const parsed = await readDicomHeader(bytes, Number.MAX_SAFE_INTEGER);
    return { parsed, blob: { key: blobKey(sha256), sha256, size: bytes.byteLength } };
  }

  const failing = () => {
    throw new Error('this row cannot be written');
  };

  /**
   * Indexes `first` with its file held, so its transaction holds the connection, then the others
   * with their files durable: they wait for the connection and go in one batch once `first`
   * commits. `audits[i]` is the audit step of others[i]. Answers each one's settled outcome.
   */
  async function batchBehindHeldFile(
    studyUid: string,
    others: number,
    audits: ((() => undefined) | typeof failing)[] = [],
  ) {
    const seriesUid = newUid();
    const first = await parsedInstance(studyUid, seriesUid, 0);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const firstDone = repo.indexInstance(first.parsed, target, first.blob, Date.now(), undefined, {
      syncCommit: false,
      fileDurable: held,
    });
    const rest = await Promise.all(
      Array.from({ length: others }, (_, i) => parsedInstance(studyUid, seriesUid, i + 1)),
    );
    const settled = rest.map(({ parsed, blob }, i) =>
      repo
        .indexInstance(parsed, target, blob, Date.now(), audits[i] ?? (() => undefined), {
          syncCommit: false,
          fileDurable: Promise.resolve(),
        })
        .then(
          (result) => ({ ok: true as const, result }),
          (error: Error) => ({ ok: false as const, error }),
        ),
    );
    while (repo.grouped!.waiting < others) await new Promise((resolve) => setImmediate(resolve));
    // Nothing of the waiting rows is visible, nor answered, before the shared commit.
    const visible = await reader.kysely
      .selectFrom('instances')
      .select('sop_instance_uid')
      .where(
        'sop_instance_uid',
        'in',
        rest.map((r) => r.parsed.sopInstanceUid),
      )
      .execute();
    expect(visible).toEqual([]);
    release();
    await firstDone;
    return { first, rest, outcomes: await Promise.all(settled) };
  }

  it('commits the waiting rows in one transaction and answers each after it', async () => {
    const studyUid = newUid();
    const commits = repo.grouped!.commits;
    const rows = repo.grouped!.rows;
    const { outcomes } = await batchBehindHeldFile(studyUid, 5);
    expect(outcomes.every((o) => o.ok && !o.result.duplicate)).toBe(true);
    expect(repo.grouped!.commits - commits).toBe(1);
    expect(repo.grouped!.rows - rows).toBe(5);
    const counts = await studyCounts(reader, studyUid);
    expect(counts.images).toBe(6);
    expect(counts.sops.size).toBe(6);
    expect(counts.series.map(([images]) => images)).toEqual([6]);
  });

  it('fails only the row that fails: the others of its batch are stored', async () => {
    const studyUid = newUid();
    const { rest, outcomes } = await batchBehindHeldFile(studyUid, 3, [undefined!, failing, undefined!]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    expect(outcomes[1]!.ok ? '' : outcomes[1]!.error.message).toBe('this row cannot be written');
    const counts = await studyCounts(reader, studyUid);
    expect(counts.sops.has(rest[1]!.parsed.sopInstanceUid)).toBe(false);
    expect(counts.sops.size).toBe(3);
    expect(counts.images).toBe(3);
    expect(counts.series.map(([images]) => images)).toEqual([3]);
  });

  it('runs each row again on its own when the shared commit fails, failing only the faulty one', async () => {
    const studyUid = newUid();
    const direct = server.ctx.db.sqlite!;
    const exec = direct.exec.bind(direct);
    let commitsSeen = 0;
    let failedCommits = 0;
    // The batch's COMMIT fails once, as on a full disk; the rows' own transactions commit. The
    // first commit seen is the held instance's own, the second the batch's.
    direct.exec = (source: string) => {
      if (source.startsWith('commit;') && ++commitsSeen === 2) {
        failedCommits += 1;
        throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      }
      exec(source);
    };
    try {
      const commits = repo.grouped!.commits;
      const { rest, outcomes } = await batchBehindHeldFile(studyUid, 4, [
        undefined!,
        undefined!,
        failing,
        undefined!,
      ]);
      expect(failedCommits).toBe(1);
      expect(repo.grouped!.commits).toBe(commits);
      expect(outcomes.map((o) => o.ok)).toEqual([true, true, false, true]);
      const counts = await studyCounts(reader, studyUid);
      expect(counts.sops.has(rest[2]!.parsed.sopInstanceUid)).toBe(false);
      expect(counts.sops.size).toBe(4);
      expect(counts.images).toBe(4);
      expect(counts.series.map(([images]) => images)).toEqual([4]);
    } finally {
      direct.exec = exec;
    }
    // The connection is back at FULL with no transaction open: an ordinary write goes in.
    expect(direct.inTransaction).toBe(false);
    const next = await parsedInstance(newUid(), newUid(), 1);
    await repo.indexInstance(next.parsed, target, next.blob, Date.now());
    expect(await studyCounts(reader, next.parsed.studyInstanceUid)).toMatchObject({ images: 1 });
  });
});
