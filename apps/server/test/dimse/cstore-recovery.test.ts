import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/dialect.js';
import type { Database } from '../../src/db/schema.js';
import { transactionWithoutSync } from '../../src/db/index-durability.js';
import { generateStudySpecs } from '../../src/dicom/index.js';
import { readFileMeta } from '../../src/ingest/recovery-scan.js';
import { blobKey } from '../../src/storage/blob-store.js';
import type { RunningServer } from '../../src/main.js';
import { startOnDataDir } from '../support/data-dir-server.js';
import { sendFolder } from '../support/storescu.js';
import { writeStudyFolder } from '../support/study-folder.js';
import { createPgDatabase, DIALECTS } from '../support/test-server.js';

/**
 * The recovery scan: C-STORE index rows are committed without waiting for the log sync, so a power
 * cut may lose the newest ones while their files survive. A power cut cannot be made here; the
 * loss is simulated by deleting the rows a lost commit would have written (an instance of one
 * study; all of another, with its audit event) and putting back the run marker of the stopped run.
 */

describe.each(DIALECTS)('recovery scan after an unclean stop on %s', (dialect) => {
  let work: string;
  let dataDir: string;
  let databaseUrl: string | undefined;
  let server: RunningServer | undefined;
  const marker = () => path.join(dataDir, 'server.running');

  const start = () => startOnDataDir(dataDir, databaseUrl);

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-recovery-'));
    dataDir = path.join(work, 'data');
    databaseUrl = dialect === 'postgres' ? await createPgDatabase() : undefined;
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('commits an unsynced index transaction at the weaker level only on SQLite, then goes back', async () => {
    const db = openDatabase({ dataDir: path.join(work, 'levels'), databaseUrl });
    // SQLite: pragma synchronous (2 FULL, 1 NORMAL). PostgreSQL stays at synchronous_commit = on:
    // several processes share it, so an acknowledged C-STORE's rows must not depend on a log sync to come.
    const level = async (k: Kysely<Database>) => {
      const query = dialect === 'sqlite' ? sql`pragma synchronous` : sql`show synchronous_commit`;
      const row = (await query.execute(k)).rows[0] as Record<string, unknown>;
      return String(Object.values(row)[0]);
    };
    const [full, relaxed] = dialect === 'sqlite' ? ['2', '1'] : ['on', 'on'];
    try {
      expect(await level(db.kysely)).toBe(full);
      expect(await transactionWithoutSync(db.kysely, dialect, (trx) => level(trx))).toBe(relaxed);
      expect(await level(db.kysely)).toBe(full);
      await expect(
        transactionWithoutSync(db.kysely, dialect, () => Promise.reject(new Error('boom'))),
      ).rejects.toThrow('boom');
      expect(await level(db.kysely)).toBe(full);
    } finally {
      await db.close();
    }
  });

  it.runIf(dialect === 'sqlite')(
    'indexes again the files whose rows were lost, with an audit event, and a clean restart scans nothing',
    async () => {
      const first = await start();
      server = first.running;
      expect(first.running.recovery).toBeUndefined();
      const runStarted = fs.statSync(marker()).mtime;

      const dir = path.join(work, 'files');
      const perStudy = writeStudyFolder(
        dir,
        ...generateStudySpecs(2, 9001, { now: new Date('2026-05-01T00:00:00Z') }),
      );
      const sent = await sendFolder(dir, first.running.dicomPort);
      expect(sent.code, sent.output).toBe(0);
      const [kept, gone] = perStudy;
      expect(kept!.files.length).toBeGreaterThan(1);

      const k = first.running.ctx.db.kysely;
      const studyOf = (uid: string) =>
        k
          .selectFrom('studies')
          .select(['uuid', 'image_count', 'size', 'series_count', 'modality'])
          .where('study_uid', '=', uid)
          .executeTakeFirst();
      const keptBefore = (await studyOf(kept!.spec.studyInstanceUid))!;
      const goneBefore = (await studyOf(gone!.spec.studyInstanceUid))!;
      const lost = await k
        .selectFrom('instances')
        .select(['uuid', 'series_uuid', 'size', 'blob_key', 'sop_instance_uid'])
        .where('study_uuid', '=', keptBefore.uuid)
        .orderBy('created', 'desc')
        .executeTakeFirstOrThrow();
      // A C-STORE file names the sender in its meta header: that is how the scan finds its group.
      const meta = readFileMeta(fs.readFileSync(path.join(dataDir, 'blobs', lost.blob_key)));
      expect(meta.sourceAeTitle).toBe('DEMO_GATEWAY');

      await first.running.stop();
      server = undefined;
      expect(fs.existsSync(marker())).toBe(false);

      // What a power cut before the log sync leaves: the files, without the last commits.
      const db = openDatabase({ dataDir, databaseUrl });
      try {
        const t = db.kysely;
        await t.deleteFrom('instances').where('uuid', '=', lost.uuid).execute();
        await t
          .updateTable('series')
          .set({ image_count: sql`image_count - 1`, size: sql`size - ${lost.size}` })
          .where('uuid', '=', lost.series_uuid)
          .execute();
        await t
          .updateTable('studies')
          .set({ image_count: sql`image_count - 1`, size: sql`size - ${lost.size}` })
          .where('uuid', '=', keptBefore.uuid)
          .execute();
        await t.deleteFrom('audit_events').where('object_id', '=', goneBefore.uuid).execute();
        await t.deleteFrom('studies').where('uuid', '=', goneBefore.uuid).execute();
      } finally {
        await db.close();
      }
      // What a crash leaves between a dataset written ahead of its complete parse and its removal:
      // a received file (our meta header, a registered sender) whose content the ingest refuses.
      const whole = fs.readFileSync(path.join(dataDir, 'blobs', lost.blob_key));
      const refused = whole.subarray(0, whole.length - 1000);
      const refusedSha = createHash('sha256').update(refused).digest('hex');
      const refusedFile = path.join(dataDir, 'blobs', blobKey(refusedSha));
      fs.mkdirSync(path.dirname(refusedFile), { recursive: true });
      fs.writeFileSync(refusedFile, refused);
      fs.writeFileSync(marker(), 'left by a run that did not stop cleanly\n');
      fs.utimesSync(marker(), runStarted, runStarted);

      const second = await start();
      server = second.running;
      const report = second.running.recovery;
      expect(report).toMatchObject({
        recovered: 1 + gone!.files.length,
        partial: 0,
        refused: 1,
        missingFiles: 0,
      });
      expect(fs.existsSync(refusedFile)).toBe(false);
      expect(second.lines.join('\n')).toContain('Recovery scan after an unclean stop');

      const k2 = second.running.ctx.db.kysely;
      const keptAfter = (await k2
        .selectFrom('studies')
        .select(['uuid', 'image_count', 'size', 'series_count', 'modality'])
        .where('study_uid', '=', kept!.spec.studyInstanceUid)
        .executeTakeFirst())!;
      const goneAfter = (await k2
        .selectFrom('studies')
        .select(['uuid', 'image_count', 'size', 'series_count', 'modality', 'source_ae_title'])
        .where('study_uid', '=', gone!.spec.studyInstanceUid)
        .executeTakeFirst())!;
      expect({ ...keptAfter, uuid: undefined }).toEqual({ ...keptBefore, uuid: undefined });
      expect({ ...goneAfter, uuid: undefined, source_ae_title: undefined }).toEqual({
        ...goneBefore,
        uuid: undefined,
      });
      expect(goneAfter.source_ae_title).toBe('DEMO_GATEWAY');
      const back = await k2
        .selectFrom('instances')
        .select('blob_key')
        .where('sop_instance_uid', '=', lost.sop_instance_uid)
        .executeTakeFirstOrThrow();
      expect(back.blob_key).toBe(lost.blob_key);

      const events = await k2
        .selectFrom('audit_events')
        .select(['action', 'object_id', 'detail'])
        .where('object_id', 'in', [keptAfter.uuid, goneAfter.uuid])
        .execute();
      const recovered = events
        .map((e) => ({ ...e, detail: JSON.parse(e.detail ?? '{}') as Record<string, unknown> }))
        .filter((e) => e.detail.source === 'recovery');
      expect(recovered).toHaveLength(1 + gone!.files.length);
      expect(recovered.find((e) => e.detail.sop_instance_uid === lost.sop_instance_uid)).toMatchObject({
        action: 'IMAGE_ADD',
        object_id: keptAfter.uuid,
        detail: { recovered: true, calling_ae: 'DEMO_GATEWAY', blob_key: lost.blob_key },
      });
      expect(recovered.filter((e) => e.object_id === goneAfter.uuid).map((e) => e.action)).toContain(
        'CREATE',
      );

      await second.running.stop();
      server = undefined;
      const third = await start();
      server = third.running;
      expect(third.running.recovery).toBeUndefined();
      expect(third.lines.join('\n')).not.toContain('Recovery scan');
      await third.running.stop();
      server = undefined;
    },
    120_000,
  );
});
