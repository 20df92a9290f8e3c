/**
 * What a crash during HTTP uploads leaves behind (issue 14, item 7): bodies still being staged, and
 * stored files whose index commit never happened (so no upload was answered). The next start
 * removes the staged bodies, and hands the unreferenced files to the blob collector, which removes
 * them once its grace period (which protects another process's ingest in progress) is over.
 * A kill -9 cannot be aimed between a file and its commit; the debris is laid out as it would be
 * and the run marker of the crashed run put back.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInstance } from '../../src/dicom/index.js';
import type { RunningServer } from '../../src/main.js';
import { blobKey } from '../../src/storage/blob-store.js';
import { baseSpec } from '../dicom/support.js';
import { filesUnder } from '../support/ingest-state.js';
import { startOnDataDir } from '../support/data-dir-server.js';
import { ApiClient, createPgDatabase, DIALECTS } from '../support/test-server.js';

const GRACE_SECONDS = 2;

describe.each(DIALECTS)('start-up removes crash debris on %s', (dialect) => {
  let work: string;
  let dataDir: string;
  let databaseUrl: string | undefined;
  let server: RunningServer | undefined;

  const start = () => startOnDataDir(dataDir, databaseUrl, { BLOB_GRACE_SECONDS: String(GRACE_SECONDS) });

  /** Writes bytes under the blob key of `sha256` (of these bytes, or of the whole they were cut from). */
  const plantBlob = (bytes: Uint8Array, sha256 = createHash('sha256').update(bytes).digest('hex')) => {
    const file = path.join(dataDir, 'blobs', blobKey(sha256));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, bytes);
    return file;
  };

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-debris-'));
    dataDir = path.join(work, 'data');
    databaseUrl = dialect === 'postgres' ? await createPgDatabase() : undefined;
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('removes staged bodies at once and unacknowledged files after the grace period, keeping stored ones', async () => {
    const first = await start();
    server = first.running;
    const api = new ApiClient(first.running.url);
    const sid = await api.login('clinician@demo.local');
    const namespaceId = await api.namespaceOf(sid, 'Emergency');
    const stored = buildInstance(baseSpec({ sopInstanceUid: '2.25.4242.1.1' }));
    expect((await api.upload(sid, namespaceId, stored)).status).toBe(202);
    const storedFile = path.join(
      dataDir,
      'blobs',
      blobKey(createHash('sha256').update(stored).digest('hex')),
    );
    expect(fs.existsSync(storedFile)).toBe(true);
    await first.running.stop();
    server = undefined;

    // The crashed run: started a moment ago, cut off while receiving uploads.
    const runStarted = new Date(Date.now() - 5_000);
    const marker = path.join(dataDir, 'server.running');
    fs.writeFileSync(marker, 'left by a run that did not stop cleanly\n');
    fs.utimesSync(marker, runStarted, runStarted);
    const staged = [1, 2, 3].map((i) => path.join(dataDir, 'tmp', `${Date.now()}-debris${i}.part`));
    for (const file of staged) fs.writeFileSync(file, Buffer.alloc(256 * 1024, 7));
    // Stored, but its index commit never came: the upload was never answered.
    const unanswered = plantBlob(buildInstance(baseSpec({ sopInstanceUid: '2.25.4242.1.2' })));
    // A write cut short under its key.
    const whole = buildInstance(baseSpec({ sopInstanceUid: '2.25.4242.1.3' }));
    const partial = plantBlob(whole.subarray(0, 1000), createHash('sha256').update(whole).digest('hex'));
    await new Promise((r) => setTimeout(r, GRACE_SECONDS * 1000 + 300));
    // Written just now: it could be another process's upload in progress, so it waits out the grace period.
    const young = plantBlob(buildInstance(baseSpec({ sopInstanceUid: '2.25.4242.1.4' })));

    const second = await start();
    server = second.running;
    // SQLite reads each file to tell a cut-short one from a complete one; on PostgreSQL no row can
    // have been lost, so no file is read: all three are simply unacknowledged.
    expect(second.running.recovery).toMatchObject(
      dialect === 'sqlite'
        ? { partial: 1, unacknowledged: 2, removed: 2, deferred: 1 }
        : { partial: 0, unacknowledged: 3, removed: 2, deferred: 1 },
    );
    expect(filesUnder(path.join(dataDir, 'tmp'))).toEqual([]);
    expect(second.lines.join('\n')).toContain('Removed 3 staged file(s)');
    expect([unanswered, partial].filter((f) => fs.existsSync(f))).toEqual([]);
    expect(fs.existsSync(young)).toBe(true);
    expect(fs.existsSync(storedFile)).toBe(true);

    await new Promise((r) => setTimeout(r, GRACE_SECONDS * 1000 + 300));
    await second.running.ctx.services.purge.purge();
    expect(fs.existsSync(young)).toBe(false);
    // The acknowledged upload is untouched and still served.
    expect(fs.existsSync(storedFile)).toBe(true);
    const api2 = new ApiClient(second.running.url);
    const sid2 = await api2.login('clinician@demo.local');
    const found = await api2.call('study/list', { 'filter.study_uid.equals': '2.25.1001' }, sid2);
    expect(found.body.studies).toHaveLength(1);
    await second.running.stop();
    server = undefined;
  }, 120_000);
});
