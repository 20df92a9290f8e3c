import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../../src/db/dialect.js';
import { openDatabase } from '../../src/db/dialect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { JobQueue } from '../../src/jobs/job-queue.js';
import { JobsRepository } from '../../src/repositories/jobs.repository.js';
import type { Dialect } from './test-server.js';
import { createPgDatabase } from './test-server.js';

/**
 * A migrated database of its own for the job runner's tests (a data dir, and on PostgreSQL a fresh
 * database), opened again by each `connect()` as another process would open it.
 */
export function jobDatabase(dialect: Dialect, prefix: string) {
  let dataDir = '';
  let databaseUrl: string | undefined;
  const opened: Db[] = [];

  const connect = () => {
    const db = openDatabase({ dataDir, databaseUrl });
    opened.push(db);
    const jobs = new JobsRepository(db.kysely, db.dialect);
    return { db, jobs, queue: new JobQueue({ jobs, kick: () => undefined }) };
  };

  return {
    connect,
    setUp: async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
      databaseUrl = dialect === 'postgres' ? await createPgDatabase() : undefined;
      await migrateToLatest(connect().db);
    },
    tearDown: async () => {
      for (const db of opened) await db.close().catch(() => undefined);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
