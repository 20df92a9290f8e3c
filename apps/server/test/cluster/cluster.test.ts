/**
 * Three server processes on one PostgreSQL database and one S3-compatible bucket (s3rver), behind
 * Debian's haproxy for HTTP (active /readyz checks) and DICOM (TCP), while processes are killed
 * with kill -9 at random moments and started again (issue 18). Meanwhile dcmtk's storescu sends
 * C-STOREs through haproxy, resumable uploads send their chunks through it (round robin, so the
 * chunks of one file land on different processes), study lists are searched, and studies are
 * shared, which queues mail jobs to a real SMTP server. Afterwards every acknowledged instance is
 * indexed once and its blob is in the bucket with the bytes that were sent, every study's counts
 * match its rows, every acknowledged share exists once, no mail was delivered twice, and no object
 * in the bucket is forgotten (unreferenced, older than the grace period and not noted for removal).
 *
 * Needs the built server (`npm run build`) and haproxy (scripts/system-deps.sh).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomInt } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/dialect.js';
import { buildInstance, newUid } from '../../src/dicom/index.js';
import type { InstanceSpec } from '../../src/dicom/write.js';
import { BlobReferencesRepository } from '../../src/repositories/blob-references.repository.js';
import { S3BlobStore } from '../../src/storage/s3-blob-store.js';
import { SERVER_MAIN } from '../support/child-server.js';
import { ClusterNode, Haproxy } from '../support/cluster.js';
import { startTestS3, type TestS3 } from '../support/s3-server.js';
import { seriesInstanceSpec } from '../support/series-instance.js';
import { SmtpSink } from '../support/smtp-sink.js';
import { createPgDatabase, DEMO_PASSWORD } from '../support/test-server.js';

const ROUNDS = Number(process.env.CLUSTER_KILL_ROUNDS ?? 10);
const GRACE_SECONDS = 60;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The bytes after the file meta group (0002): what a sender's dataset is, whatever header we wrote. */
function dataset(bytes: Uint8Array): Buffer {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 132;
  while (offset + 8 <= buffer.length && buffer.readUInt16LE(offset) === 0x0002) {
    const vr = buffer.toString('latin1', offset + 4, offset + 6);
    const long = ['OB', 'OW', 'OF', 'SQ', 'UT', 'UN'].includes(vr);
    const length = long ? buffer.readUInt32LE(offset + 8) : buffer.readUInt16LE(offset + 6);
    offset += (long ? 12 : 8) + length;
  }
  return buffer.subarray(offset);
}

function instance(studyUid: string, seriesUid: string, n: number, patient: string): InstanceSpec {
  return seriesInstanceSpec(`cluster ${patient}`, studyUid, seriesUid, n, {
    patientName: `CLUSTER^${patient}`,
    patientId: `CLUSTER-${patient}`,
    accessionNumber: 'CLUSTER',
    seriesDescription: 'cluster series',
    rows: 128,
    columns: 128,
  });
}

/** storescu over one association; `onSuccess` gets each file whose C-STORE-RSP said success. */
function storescu(files: string[], port: number, onSuccess: (file: string) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'storescu',
      [
        '-v',
        '-to',
        '10',
        '-ta',
        '10',
        '-td',
        '10',
        '-aet',
        'DEMO_GATEWAY',
        '-aec',
        'INBOX',
        '-nh',
        '127.0.0.1',
        String(port),
        ...files,
      ],
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

interface Reply {
  status: number;
  body: Record<string, unknown>;
  servedBy: string | null;
}

describe.skipIf(spawnSync('haproxy', ['-v']).status !== 0)(
  'a cluster of three processes behind haproxy, under kill -9',
  () => {
    let work: string;
    let s3: TestS3;
    const sink = new SmtpSink();
    let databaseUrl: string;
    const nodes: ClusterNode[] = [];
    let proxy: Haproxy;

    beforeAll(async () => {
      expect(fs.existsSync(SERVER_MAIN), 'run npm run build first').toBe(true);
      work = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-cluster-'));
      s3 = await startTestS3();
      await sink.start();
      databaseUrl = await createPgDatabase();
      const env = {
        ...s3.env,
        DATABASE_URL: databaseUrl,
        SMTP_URL: sink.url,
        MAIL_RETRY_MS: '200',
        SEED_STUDIES: '12',
        SEED_NOMINATIONS: '0',
        BLOB_GRACE_SECONDS: String(GRACE_SECONDS),
        TRUST_PROXY: 'loopback',
      };
      for (const id of ['node-a', 'node-b', 'node-c']) nodes.push(await ClusterNode.create(id, work, env));
      // The first one migrates and seeds; the others wait on the start-up lock, then find it done.
      await Promise.all(nodes.map((n) => n.start()));
      proxy = await Haproxy.start(work, nodes);
    }, 180_000);

    afterAll(async () => {
      await proxy?.stop();
      for (const node of nodes) await node.kill();
      await sink.stop();
      await s3?.stop();
      if (work) fs.rmSync(work, { recursive: true, force: true });
    });

    /** One call through haproxy, tried again while the process behind it is being killed. */
    async function call(
      pathName: string,
      params: Record<string, string | number>,
      init: { sid?: string; body?: Uint8Array; tries?: number } = {},
    ): Promise<Reply> {
      const query = new URLSearchParams(
        Object.entries({ ...params, ...(init.sid ? { sid: init.sid } : {}) }).map(
          ([k, v]): [string, string] => [k, String(v)],
        ),
      );
      const tries = init.tries ?? 40;
      for (let attempt = 1; ; attempt++) {
        try {
          const response = await fetch(`${proxy.url}/api/v3/${pathName}?${query.toString()}`, {
            method: init.body ? 'PUT' : 'POST',
            ...(init.body
              ? { headers: { 'content-type': 'application/octet-stream' }, body: init.body }
              : {}),
            signal: AbortSignal.timeout(20_000),
          });
          const text = await response.text();
          if (response.status >= 502 && attempt < tries) throw new Error(`${response.status}`);
          const body = text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : {};
          return { status: response.status, body, servedBy: response.headers.get('x-served-by') };
        } catch (error) {
          if (attempt >= tries) throw error;
          await sleep(250);
        }
      }
    }

    it('loses no acknowledged instance, duplicates none, and mails once', async () => {
      const login = await call('session/login', { login: 'clinician@demo.local', password: DEMO_PASSWORD });
      const sid = String(login.body.sid);
      const admin = String(
        (await call('session/login', { login: 'admin@demo.local', password: DEMO_PASSWORD })).body.sid,
      );
      const groups = (await call('group/list', {}, { sid })).body.groups as {
        name: string;
        uuid: string;
        namespace_id: string;
      }[];
      const emergency = groups.find((g) => g.name === 'Emergency')!;
      const cardiology = groups.find((g) => g.name === 'Cardiology')!;

      const db: Db = openDatabase({ dataDir: path.join(work, 'probe'), databaseUrl });
      const files = path.join(work, 'files');
      fs.mkdirSync(files);
      /** SOP Instance UID → the dataset (C-STORE) or whole file (upload) acknowledged for it. */
      const acknowledged = new Map<string, { via: 'cstore' | 'upload'; bytes: Uint8Array }>();
      const shared: string[] = [];
      const failedSearches = new Map<string, number>();
      const figures = { searches: 0, searchFailures: 0, uploadsOnSeveral: 0, associations: 0 };
      let running = true;

      const cstores = async () => {
        for (let batch = 0; running; batch++) {
          const study = newUid();
          const series = newUid();
          const sent = new Map<string, { sop: string; bytes: Uint8Array }>();
          for (let n = 1; n <= 4; n++) {
            const spec = instance(study, series, n, 'CSTORE');
            const bytes = buildInstance(spec);
            const file = path.join(files, `${batch}-${n}.dcm`);
            fs.writeFileSync(file, bytes);
            sent.set(file, { sop: spec.sopInstanceUid, bytes });
          }
          figures.associations++;
          await storescu([...sent.keys()], proxy.dicomPort, (file) => {
            const { sop, bytes } = sent.get(file)!;
            acknowledged.set(sop, { via: 'cstore', bytes });
          });
        }
      };

      const uploads = async () => {
        for (let n = 0; running; n++) {
          const spec = instance(newUid(), newUid(), 1, 'UPLOAD');
          const bytes = buildInstance({ ...spec, rows: 192, columns: 192 });
          const created = await call(
            'upload/session/create',
            { size: bytes.byteLength, namespace_id: emergency.namespace_id },
            { sid },
          );
          if (created.status !== 200) continue;
          const id = String(created.body.id);
          const servedBy = new Set<string>();
          let received = 0;
          const size = 24 * 1024;
          for (let guard = 0; received < bytes.byteLength && guard < 100; guard++) {
            const chunk = await call(
              'upload/session/chunk',
              { id, offset: received },
              { sid, body: bytes.subarray(received, received + size) },
            );
            if (chunk.status === 200) {
              received = Number(chunk.body.received);
              if (chunk.servedBy) servedBy.add(chunk.servedBy);
            } else {
              const status = await call('upload/session/status', { id }, { sid });
              if (status.status === 200) received = Number(status.body.received);
              else break;
            }
          }
          if (received !== bytes.byteLength) continue;
          const done = await call('upload/session/complete', { id }, { sid });
          if (done.status === 202) {
            acknowledged.set(spec.sopInstanceUid, { via: 'upload', bytes });
            if (servedBy.size > 1) figures.uploadsOnSeveral++;
          }
        }
      };

      const searches = async () => {
        while (running) {
          const list = await call('study/list', {}, { sid, tries: 1 }).catch(() => undefined);
          if (list?.status === 200) figures.searches++;
          else {
            figures.searchFailures++;
            const why = String(list?.status ?? 'no answer');
            failedSearches.set(why, (failedSearches.get(why) ?? 0) + 1);
          }
          await sleep(200);
        }
      };

      // The clinician is mailed about what is shared into Cardiology.
      const opted = await fetch(
        `${proxy.url}/api/v3/user/event/set?sid=${sid}&namespace_id=${cardiology.namespace_id}&event_share=1`,
      );
      expect(opted.status).toBe(200);
      const seeded = await db.kysely
        .selectFrom('studies')
        .select('uuid')
        .where('namespace_id', '=', emergency.namespace_id)
        .where('deleted', 'is', null)
        .where(
          'study_uid',
          'not in',
          db.kysely
            .selectFrom('studies')
            .select('study_uid')
            .where('namespace_id', '=', cardiology.namespace_id),
        )
        .execute();
      const shares = async () => {
        for (const study of seeded) {
          if (!running) break;
          const answer = await call(
            'study/share',
            { uuid: study.uuid, group_id: cardiology.uuid },
            { sid: admin },
          );
          if (answer.body.status === 'OK') shared.push(study.uuid);
          await sleep(300);
        }
      };

      // Each round kills a process that is up, at a random moment, and starts it again in the
      // background: the next round may come while it is still starting. One process stays up.
      const kills: string[] = [];
      const restarting = new Map<ClusterNode, Promise<void>>();
      const killer = async () => {
        for (let round = 0; round < ROUNDS; round++) {
          await sleep(randomInt(500, 2500));
          while (restarting.size >= nodes.length - 1) await Promise.race(restarting.values());
          const up = nodes.filter((n) => !restarting.has(n));
          const node = up[randomInt(up.length)]!;
          await node.kill();
          kills.push(node.id);
          const back = sleep(randomInt(0, 800))
            .then(() => node.start())
            .finally(() => restarting.delete(node));
          restarting.set(node, back);
        }
        await Promise.all(restarting.values());
      };

      const started = Date.now();
      const workers = [cstores(), uploads(), searches(), shares()];
      await killer();
      running = false;
      await Promise.all(workers);
      const ms = Date.now() - started;

      try {
        // Mails queued before a kill are sent by whichever process takes the job over.
        const deadline = Date.now() + 60_000;
        for (;;) {
          const queued = await db.kysely
            .selectFrom('outbox')
            .select('id')
            .where('state', '=', 'queued')
            .execute();
          if (!queued.length) break;
          if (Date.now() > deadline) throw new Error(`${queued.length} mail(s) still queued`);
          await sleep(250);
        }

        const blobs = new S3BlobStore(path.join(work, 'probe'), s3.location);
        let lost = 0;
        let duplicates = 0;
        let damaged = 0;
        for (const [sop, sent] of acknowledged) {
          const rows = await db.kysely
            .selectFrom('instances')
            .select('blob_key')
            .where('sop_instance_uid', '=', sop)
            .execute();
          if (rows.length === 0) lost++;
          if (rows.length > 1) duplicates++;
          if (!rows[0]) continue;
          const stored = await blobs.read(rows[0].blob_key).catch(() => undefined);
          const same =
            stored !== undefined &&
            rows[0].blob_key.endsWith(`${sha256(stored)}.dcm`) &&
            (sent.via === 'upload'
              ? sha256(stored) === sha256(sent.bytes)
              : dataset(stored).equals(dataset(sent.bytes)));
          if (!same) damaged++;
        }
        // No stray object: each one in the bucket is referenced, young enough that an ingest may
        // still be indexing it, or noted for the collector (found by a restarted process's scan).
        const references = new BlobReferencesRepository(db.kysely);
        const pending = new Set(
          (await db.kysely.selectFrom('blob_removals').select('blob_key').execute()).map((r) => r.blob_key),
        );
        const { keys: everything } = await blobs.writtenSince(0);
        const stray: string[] = [];
        for (const key of everything) {
          if (pending.has(key) || (await references.isReferenced(key))) continue;
          const stat = await blobs.stat(key);
          if (stat && stat.writtenAt < Date.now() - GRACE_SECONDS * 1000) stray.push(key);
        }
        await blobs.close();

        // No half-visible study: every study's counts are its rows.
        const counts = await db.kysely
          .selectFrom('studies')
          .leftJoin('instances', 'instances.study_uuid', 'studies.uuid')
          .select(['studies.uuid', 'studies.image_count'])
          .select((eb) => eb.fn.count('instances.uuid').as('rows'))
          .where('studies.patientid', 'like', 'CLUSTER-%')
          .groupBy(['studies.uuid', 'studies.image_count'])
          .execute();
        const halfVisible = counts.filter((c) => Number(c.image_count) !== Number(c.rows));

        const copies = await db.kysely
          .selectFrom('studies')
          .select(['study_uid'])
          .select((eb) => eb.fn.count('uuid').as('n'))
          .where('namespace_id', '=', cardiology.namespace_id)
          .groupBy('study_uid')
          .execute();
        const doubleCopies = copies.filter((c) => Number(c.n) > 1);

        const messageIds = sink.received.map((m) => /^Message-ID:\s*(\S+)/im.exec(m.raw)?.[1] ?? '');
        const mailedTwice = messageIds.length - new Set(messageIds).size;
        const sentRows = await db.kysely
          .selectFrom('outbox')
          .select('id')
          .where('state', '=', 'sent')
          .execute();

        const cstored = [...acknowledged.values()].filter((a) => a.via === 'cstore').length;
        console.log(
          `cluster kill -9: ${kills.length} rounds in ${(ms / 1000).toFixed(0)} s (${kills.join(' ')}); ` +
            `acknowledged ${acknowledged.size} instances (${cstored} C-STORE over ${figures.associations} associations, ` +
            `${acknowledged.size - cstored} resumable uploads, ${figures.uploadsOnSeveral} with chunks on several processes); ` +
            `lost ${lost}, duplicates ${duplicates}, damaged ${damaged}, half-visible studies ${halfVisible.length}; ` +
            `${everything.length} objects in the bucket (${pending.size} noted for the collector, ${stray.length} stray); ` +
            `shares ${shared.length}, mails ${sink.received.length} (${sentRows.length} sent rows, ${mailedTwice} twice); ` +
            `searches ${figures.searches} answered, ${figures.searchFailures} failed ${JSON.stringify(Object.fromEntries(failedSearches))}`,
        );

        expect(kills.length).toBeGreaterThanOrEqual(ROUNDS);
        expect(cstored).toBeGreaterThan(0);
        expect(acknowledged.size - cstored).toBeGreaterThan(0);
        expect(figures.uploadsOnSeveral).toBeGreaterThan(0);
        expect({ lost, duplicates, damaged, halfVisible: halfVisible.length }).toEqual({
          lost: 0,
          duplicates: 0,
          damaged: 0,
          halfVisible: 0,
        });
        expect(stray).toEqual([]);
        expect(doubleCopies).toEqual([]);
        expect(shared.length).toBeGreaterThan(0);
        expect(mailedTwice).toBe(0);
        expect(sink.received.length).toBe(sentRows.length);
      } finally {
        await db.close();
      }
    }, 240_000);
  },
);
