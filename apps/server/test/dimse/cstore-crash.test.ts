import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/dialect.js';
import { buildInstance, newUid } from '../../src/dicom/index.js';
import type { ChildServer } from '../support/child-server.js';
import { SERVER_MAIN, startChildServer } from '../support/child-server.js';
import { createPgDatabase, DIALECTS } from '../support/test-server.js';

/**
 * The durability promise under a crash: C-STORE answers success once the file is durable and its
 * index row committed (without waiting for the log sync). The built server is killed with SIGKILL
 * while storescu sends; after a restart every instance storescu saw answered with success must be
 * on disk and indexed, and no index row may point at a missing file.
 */

const FILES = 400;
const KILL_AFTER = 60;

function writeInstances(dir: string): Map<string, string> {
  fs.mkdirSync(dir, { recursive: true });
  const sopByFile = new Map<string, string>();
  const study = newUid();
  const series = [newUid(), newUid()];
  for (let i = 0; i < FILES; i++) {
    const sopInstanceUid = newUid();
    const file = path.join(dir, `${String(i).padStart(4, '0')}.dcm`);
    fs.writeFileSync(
      file,
      buildInstance({
        patientName: 'CRASH^TEST',
        patientId: 'CRASH-1',
        patientSex: 'O',
        patientBirthDate: '19700101',
        studyInstanceUid: study,
        studyDate: '20260101',
        studyTime: '120000',
        studyDescription: 'crash test',
        accessionNumber: 'CRASH1',
        referringPhysician: '',
        institutionName: 'Test',
        seriesDescription: 'crash series',
        modality: 'CT',
        bodyPart: 'HEAD',
        seriesInstanceUid: series[i % 2]!,
        seriesNumber: (i % 2) + 1,
        sopInstanceUid,
        instanceNumber: i + 1,
        rows: 64,
        columns: 64,
      }),
    );
    sopByFile.set(file, sopInstanceUid);
  }
  return sopByFile;
}

/**
 * Sends every file over one association with verbose output, calling `onSuccess` with each file
 * whose C-STORE-RSP said success (storescu sends one at a time: the answer follows its file).
 */
function storescuVerbose(files: string[], port: number, onSuccess: (file: string) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'storescu',
      ['-v', '-aet', 'DEMO_GATEWAY', '-aec', 'INBOX', '-nh', '127.0.0.1', String(port), ...files],
      { env: { ...process.env, TCP_NODELAY: '1' } },
    );
    let pending = '';
    let current: string | undefined;
    const lines = (chunk: Buffer) => {
      pending += chunk.toString();
      const parts = pending.split('\n');
      pending = parts.pop()!;
      for (const line of parts) {
        const sending = /Sending file: (.*)$/.exec(line);
        if (sending) current = sending[1]!.trim();
        else if (/Received Store Response \(Success\)/.test(line) && current) {
          onSuccess(current);
          current = undefined;
        }
      }
    };
    child.stdout.on('data', lines);
    child.stderr.on('data', lines);
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? -1));
  });
}

describe.each(DIALECTS)('C-STORE survives SIGKILL of the server on %s', (dialect) => {
  let work: string;
  let dataDir: string;
  let env: Record<string, string>;
  let server: ChildServer | undefined;

  beforeAll(async () => {
    expect(fs.existsSync(SERVER_MAIN), 'run npm run build first').toBe(true);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-crash-'));
    dataDir = path.join(work, 'data');
    env = dialect === 'postgres' ? { DATABASE_URL: await createPgDatabase() } : {};
  });
  afterAll(async () => {
    await server?.kill();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('keeps every instance answered with success, indexed and on disk, and a clean restart scans nothing', async () => {
    const sopByFile = writeInstances(path.join(work, 'files'));
    server = await startChildServer(dataDir, env);
    const succeeded: string[] = [];
    let killed: Promise<void> | undefined;
    const code = await storescuVerbose([...sopByFile.keys()], server.dicomPort, (file) => {
      succeeded.push(file);
      if (succeeded.length === KILL_AFTER) killed = server!.kill();
    });
    await killed;
    // The association broke: storescu did not get through the list.
    expect(code).not.toBe(0);
    expect(succeeded.length).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(succeeded.length).toBeLessThan(FILES);
    expect(fs.existsSync(path.join(dataDir, 'server.running'))).toBe(true);

    server = await startChildServer(dataDir, env);
    expect(server.output()).toContain('Recovery scan after an unclean stop');

    const db = openDatabase({ dataDir, databaseUrl: env.DATABASE_URL });
    try {
      const rows = await db.kysely
        .selectFrom('instances')
        .innerJoin('studies', 'studies.uuid', 'instances.study_uuid')
        .select(['instances.sop_instance_uid', 'instances.blob_key'])
        .where('studies.patientid', '=', 'CRASH-1')
        .execute();
      const indexed = new Map(rows.map((row) => [row.sop_instance_uid, row.blob_key]));
      for (const file of succeeded) {
        const key = indexed.get(sopByFile.get(file)!);
        expect(key, `${file} was answered with success but is not indexed`).toBeDefined();
      }
      for (const row of rows) {
        expect(fs.existsSync(path.join(dataDir, 'blobs', row.blob_key)), `${row.blob_key} missing`).toBe(
          true,
        );
      }
      // At most the instance in flight at the kill may have made it in without its answer.
      expect(rows.length - succeeded.length).toBeLessThanOrEqual(1);
      const counts = await db.kysely
        .selectFrom('studies')
        .select(['image_count'])
        .where('patientid', '=', 'CRASH-1')
        .executeTakeFirstOrThrow();
      expect(Number(counts.image_count)).toBe(rows.length);
    } finally {
      await db.close();
    }

    await server.stop();
    expect(fs.existsSync(path.join(dataDir, 'server.running'))).toBe(false);
    server = await startChildServer(dataDir, env);
    expect(server.output()).not.toContain('Recovery scan');
    await server.stop();
    server = undefined;
  }, 180_000);
});
