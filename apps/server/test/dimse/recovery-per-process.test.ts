/**
 * Each process's run marker and recovery scan are its own (issue 18). Processes named by PROCESS_ID
 * keep their markers apart, so one never takes another's live run for a crash of its own; and on
 * PostgreSQL, where several processes index at once and every C-STORE acknowledgement waits for
 * the log flush, the scan after a crash rebuilds nothing from files: an unreferenced file was never
 * acknowledged, and may be another process's ingest under way, so it is only handed to the
 * collector's grace period.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/dialect.js';
import { generateStudySpecs } from '../../src/dicom/index.js';
import type { RunningServer } from '../../src/main.js';
import { startOnDataDir } from '../support/data-dir-server.js';
import { sendFolder } from '../support/storescu.js';
import { writeStudyFolder } from '../support/study-folder.js';
import { createPgDatabase, DIALECTS } from '../support/test-server.js';

describe.each(DIALECTS)('run markers and recovery scans per process on %s', (dialect) => {
  let work: string;
  let dataDir: string;
  let databaseUrl: string | undefined;
  let server: RunningServer | undefined;
  const markerOf = (id: string) => path.join(dataDir, `server-${id}.running`);

  const start = async (processId: string) =>
    (await startOnDataDir(dataDir, databaseUrl, { PROCESS_ID: processId })).running;

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-markers-'));
    dataDir = path.join(work, 'data');
    databaseUrl = dialect === 'postgres' ? await createPgDatabase() : undefined;
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it("keeps a marker per process id: another process's live run is not taken for a crash", async () => {
    server = await start('node-a');
    expect(fs.existsSync(markerOf('node-a'))).toBe(true);
    expect(fs.readFileSync(markerOf('node-a'), 'utf8')).toContain('process node-a');
    // node-b is running (its marker is there) while node-a stops and starts again.
    fs.writeFileSync(markerOf('node-b'), 'process node-b pid 1 started earlier\n');
    await server.stop();
    server = undefined;
    expect(fs.existsSync(markerOf('node-a'))).toBe(false);
    expect(fs.existsSync(markerOf('node-b'))).toBe(true);
    server = await start('node-a');
    expect(server.recovery).toBeUndefined();
    await server.stop();
    server = undefined;
    expect(fs.existsSync(markerOf('node-b'))).toBe(true);
    fs.rmSync(markerOf('node-b'));
  }, 60_000);

  it.runIf(dialect === 'postgres')(
    'after a crash, indexes no unreferenced file again and leaves it to the grace period',
    async () => {
      server = await start('node-a');
      const dir = path.join(work, 'files');
      writeStudyFolder(dir, ...generateStudySpecs(1, 7301, { now: new Date('2026-05-01T00:00:00Z') }));
      const runStarted = fs.statSync(markerOf('node-a')).mtime;
      const sent = await sendFolder(dir, server.dicomPort);
      expect(sent.code, sent.output).toBe(0);
      const k = server.ctx.db.kysely;
      const unreferenced = await k
        .selectFrom('instances')
        .select(['uuid', 'blob_key', 'sop_instance_uid'])
        .orderBy('created', 'desc')
        .executeTakeFirstOrThrow();
      await server.stop();
      server = undefined;

      // A file whose row never committed: this run's crash debris, or a file another live
      // process has written and is about to index. Either way no success was answered for it yet.
      const db = openDatabase({ dataDir, databaseUrl });
      try {
        await db.kysely.deleteFrom('instances').where('uuid', '=', unreferenced.uuid).execute();
      } finally {
        await db.close();
      }
      fs.writeFileSync(markerOf('node-a'), 'left by a run that did not stop cleanly\n');
      fs.utimesSync(markerOf('node-a'), runStarted, runStarted);

      server = await start('node-a');
      expect(server.recovery).toMatchObject({ recovered: 0, refused: 0, unacknowledged: 1, deferred: 1 });
      expect(fs.existsSync(path.join(dataDir, 'blobs', unreferenced.blob_key))).toBe(true);
      const again = await server.ctx.db.kysely
        .selectFrom('instances')
        .select('uuid')
        .where('sop_instance_uid', '=', unreferenced.sop_instance_uid)
        .execute();
      expect(again).toHaveLength(0);
      const pending = await server.ctx.db.kysely
        .selectFrom('blob_removals')
        .selectAll()
        .where('blob_key', '=', unreferenced.blob_key)
        .execute();
      expect(pending).toHaveLength(1);
      await server.stop();
      server = undefined;
    },
    120_000,
  );
});
