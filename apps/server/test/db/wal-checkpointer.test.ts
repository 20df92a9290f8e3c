import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/dialect.js';
import type { Db } from '../../src/db/dialect.js';
import { FALLBACK_AUTOCHECKPOINT_PAGES } from '../../src/db/wal-checkpointer.js';

/**
 * The WAL is copied back into the database file by the checkpointer's own thread, not by the
 * commits of the main connection. Observed in the WAL index (`-shm`): its header's mxFrame is the
 * last frame written to the log, its checkpoint info's nBackfill the last one copied back.
 */
function walProgress(dataDir: string): { written: number; copiedBack: number } {
  const shm = fs.readFileSync(path.join(dataDir, 'imaging-inbox.sqlite-shm'));
  return { written: shm.readUInt32LE(16), copiedBack: shm.readUInt32LE(96) };
}

async function fillLog(db: Db): Promise<void> {
  await sql`create table filler (payload blob)`.execute(db.kysely);
  // About 600 pages of log, in 30 commits: under the fallback, so only a checkpointer copies them.
  for (let i = 0; i < 30; i++) {
    await sql`insert into filler (payload) values (randomblob(80000))`.execute(db.kysely);
  }
}

describe('background WAL checkpoints (SQLite)', () => {
  const dirs: string[] = [];
  const opened: Db[] = [];
  const open = (checkpoints: boolean) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-wal-'));
    dirs.push(dataDir);
    const db = openDatabase({ dataDir }, { checkpoints });
    opened.push(db);
    return { db, dataDir };
  };
  afterEach(async () => {
    for (const db of opened.splice(0)) await db.close();
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('copies committed log frames back from its own thread, and the main connection defers to it', async () => {
    const { db, dataDir } = open(true);
    const setting = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db.kysely);
    expect(setting.rows[0]!.wal_autocheckpoint).toBe(FALLBACK_AUTOCHECKPOINT_PAGES);
    await fillLog(db);
    const deadline = Date.now() + 5_000;
    let progress = walProgress(dataDir);
    while (progress.copiedBack < progress.written && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      progress = walProgress(dataDir);
    }
    expect(progress.written).toBeGreaterThan(500);
    expect(progress.copiedBack).toBe(progress.written);
    // The data is all there after a checkpoint from the other thread.
    const count = await sql<{ n: number }>`select count(*) as n from filler`.execute(db.kysely);
    expect(count.rows[0]!.n).toBe(30);
  });

  it('without it, frames under the fallback stay in the log (what the test above rules out)', async () => {
    const { db, dataDir } = open(false);
    await sql.raw(`pragma wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`).execute(db.kysely);
    await fillLog(db);
    await new Promise((resolve) => setTimeout(resolve, 600));
    const progress = walProgress(dataDir);
    expect(progress.written).toBeGreaterThan(500);
    expect(progress.copiedBack).toBe(0);
  });
});
