import { createHash } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { UPLOAD_RESUME_HEAD_BYTES } from '@imaging-inbox/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateStudySpecs, writeStudyFiles } from '../../src/dicom/index.js';
import { uploadAnswer } from '../../src/ingest/upload-answer.js';
import { UploadSessionService, type UploadOwner } from '../../src/ingest/upload-session.service.js';
import { UploadSessionsRepository } from '../../src/repositories/upload-sessions.repository.js';
import { hashToken } from '../../src/security/tokens.js';
import type { UploadChunks } from '../../src/storage/upload-chunk-store.js';
import type { Answer, TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { ingestState } from '../support/ingest-state.js';
import { uploadChunksOf, type UploadChunksSeen } from '../support/upload-chunks.js';

const MB = 1024 * 1024;
const NOW = new Date('2026-06-01T00:00:00Z');

/** A real DICOM file of about `rows × columns × 2` bytes, from its own generated study. */
function dicomFile(seed: number, rows = 256, columns = 256) {
  const [spec] = generateStudySpecs(1, seed, { now: NOW });
  return { spec: spec!, ...writeStudyFiles(spec!, { rows, columns })[0]! };
}

/** The upload-session calls of one base path (signed-in or link), with the caller's credential. */
class SessionClient {
  constructor(
    private readonly url: string,
    private readonly base: string,
    private readonly credential: { sid?: string; grant?: string },
  ) {}

  private async send(
    call: string,
    params: Record<string, string | number>,
    init: RequestInit = {},
  ): Promise<Answer> {
    const query = new URLSearchParams(
      Object.entries({ ...params, ...(this.credential.sid ? { sid: this.credential.sid } : {}) }).map(
        ([k, v]): [string, string] => [k, String(v)],
      ),
    );
    const headers = new Headers(init.headers);
    if (this.credential.grant) headers.set('x-link-grant', this.credential.grant);
    const response = await fetch(`${this.url}/api/v3/${this.base}/${call}?${query.toString()}`, {
      method: 'POST',
      ...init,
      headers,
    });
    return { status: response.status, body: await response.json() };
  }

  create(size: number, namespaceId?: string, head?: string) {
    return this.send('create', {
      size,
      ...(namespaceId ? { namespace_id: namespaceId } : {}),
      ...(head ? { head_sha256: head } : {}),
    });
  }
  status(id: string, head?: string) {
    return this.send('status', { id, ...(head ? { head_sha256: head } : {}) });
  }
  chunk(id: string, offset: number | string, bytes: Uint8Array) {
    return this.send(
      'chunk',
      { id, offset },
      { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: bytes },
    );
  }
  complete(id: string) {
    return this.send('complete', { id });
  }

  /** Sends `bytes` from `from` in chunks of `size`, expecting each to be held. */
  async sendFrom(id: string, bytes: Uint8Array, from: number, size: number): Promise<void> {
    for (let offset = from; offset < bytes.byteLength; offset += size) {
      const answer = await this.chunk(id, offset, bytes.subarray(offset, offset + size));
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.received).toBe(Math.min(offset + size, bytes.byteLength));
    }
  }
}

/** The head hash a client declares for `bytes`: SHA-256 of its first UPLOAD_RESUME_HEAD_BYTES. */
const headOf = (bytes: Uint8Array) =>
  createHash('sha256').update(bytes.subarray(0, UPLOAD_RESUME_HEAD_BYTES)).digest('hex');

describe.each(DIALECTS)('resumable upload sessions on %s', (dialect) => {
  let server: TestServer;
  let sid: string;
  let emergency: string;
  let me: SessionClient;
  /** The session bytes, on the file store or the object store the server runs. */
  let chunks: UploadChunksSeen;

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      UPLOAD_MAX_BYTES: String(40 * MB),
      UPLOAD_SESSION_OWNER_BYTES: String(48 * MB),
    });
    sid = await server.api.login('clinician@demo.local');
    emergency = await server.api.namespaceOf(sid, 'Emergency');
    me = new SessionClient(server.url, 'upload/session', { sid });
    chunks = uploadChunksOf(server);
  });
  afterAll(() => server?.stop());

  const counts = () => ingestState(server);
  const heldBy = (id: string) => chunks.held(hashToken(id));
  /** Another process over the same database and chunk store, with its own clock. */
  const processOf = (now?: () => number) =>
    new UploadSessionService({
      repo: new UploadSessionsRepository(server.ctx.db.kysely),
      chunks: chunks.store,
      ingest: server.ctx.services.ingest,
      answerOf: uploadAnswer,
      limits: {
        maxFileBytes: 40 * MB,
        ownerBytes: 48 * MB,
        ownerSessions: 200,
        totalBytes: 1024 * MB,
        ttlMs: 3600_000,
      },
      ...(now ? { now } : {}),
    });

  it('assembles chunks into one file, ingests it on completion and answers like a single upload', async () => {
    const file = dicomFile(9001, 512, 512);
    expect(file.bytes.byteLength).toBeGreaterThan(400 * 1024);
    const created = await me.create(file.bytes.byteLength, emergency);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      status: 'OK',
      size: file.bytes.byteLength,
      received: 0,
      completed: 0,
    });
    // 256-bit ids, stored only as a hash.
    const id = created.body.id as string;
    expect(id.length).toBeGreaterThanOrEqual(43);
    const row = await server.ctx.db.kysely
      .selectFrom('upload_sessions')
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(row.id_hash).not.toContain(id);

    await me.sendFrom(id, file.bytes, 0, 100 * 1024);
    expect((await me.status(id)).body).toMatchObject({ received: file.bytes.byteLength, completed: 0 });
    const done = await me.complete(id);
    expect(done.status).toBe(202);
    expect(done.body).toMatchObject({
      status: 'OK',
      study_uid: file.spec.studyInstanceUid,
      sop_instance_uid: file.sopInstanceUid,
      duplicate: false,
    });
    // The session's bytes moved into the blob store; a repeated complete answers the same result.
    expect([await chunks.sessions(), await chunks.staged()]).toEqual([[], []]);
    expect((await me.complete(id)).body).toEqual(done.body);
    expect((await me.status(id)).body.completed).toBe(1);
    const study = await server.api.get('study/get', { sid, uuid: done.body.study_uuid });
    expect(study.body).toMatchObject({ image_count: 1, size: file.bytes.byteLength });
  });

  it('resumes a partial upload from the offset the server holds', async () => {
    const file = dicomFile(9002, 512, 512);
    const id = (await me.create(file.bytes.byteLength, emergency)).body.id as string;
    const half = 300 * 1024;
    await me.sendFrom(id, file.bytes.subarray(0, half), 0, 128 * 1024);
    // A reloaded page knows only the id: it asks where to go on from and sends the rest.
    const status = await me.status(id);
    expect(status.body.received).toBe(half);
    await me.sendFrom(id, file.bytes, status.body.received as number, 128 * 1024);
    const done = await me.complete(id);
    expect(done.status).toBe(202);
    const stored = await server.ctx.db.kysely
      .selectFrom('instances')
      .select('size')
      .where('sop_instance_uid', '=', file.sopInstanceUid)
      .executeTakeFirstOrThrow();
    expect(Number(stored.size)).toBe(file.bytes.byteLength);
  });

  it('answers a repeated chunk, refuses gaps, overlaps and bytes past the size with the held offset', async () => {
    const file = dicomFile(9003);
    const size = file.bytes.byteLength;
    const id = (await me.create(size, emergency)).body.id as string;
    const first = file.bytes.subarray(0, 1000);
    expect((await me.chunk(id, 0, first)).body.received).toBe(1000);
    // The same chunk again (its answer was lost): answered, nothing moves.
    const again = await me.chunk(id, 0, first);
    expect(again.status).toBe(200);
    expect(again.body.received).toBe(1000);

    const gap = await me.chunk(id, 1500, file.bytes.subarray(1500, 2000));
    expect(gap.status).toBe(412);
    expect(gap.body).toMatchObject({
      error_type: 'UPLOAD_OFFSET_MISMATCH',
      error_data: { received: 1000, size },
    });
    const overlap = await me.chunk(id, 500, file.bytes.subarray(500, 1500));
    expect(overlap.body).toMatchObject({
      error_type: 'UPLOAD_OFFSET_MISMATCH',
      error_data: { received: 1000 },
    });
    const past = await me.chunk(id, 1000, new Uint8Array(size));
    expect(past.status).toBe(413);
    expect(past.body.error_type).toBe('FILE_TOO_LARGE');
    for (const bad of ['-1', 'abc', '1e3']) {
      expect((await me.chunk(id, bad, file.bytes.subarray(1000, 1100))).body.error_type, bad).toBe(
        'INVALID_FIELD',
      );
    }
    const early = await me.complete(id);
    expect(early.body).toMatchObject({
      error_type: 'UPLOAD_INCOMPLETE',
      error_data: { received: 1000, size },
    });
    expect((await me.status(id)).body.received).toBe(1000);
  });

  it('does not let anyone else reach a session: another user, another sign-in, a made-up id', async () => {
    const file = dicomFile(9004);
    const id = (await me.create(file.bytes.byteLength, emergency)).body.id as string;
    await me.chunk(id, 0, file.bytes.subarray(0, 100));
    const otherUser = new SessionClient(server.url, 'upload/session', {
      sid: await server.api.login('admin@demo.local'),
    });
    const otherSignIn = new SessionClient(server.url, 'upload/session', {
      sid: await server.api.login('clinician@demo.local'),
    });
    for (const client of [otherUser, otherSignIn]) {
      expect((await client.status(id)).body.error_type).toBe('NOT_FOUND');
      expect((await client.chunk(id, 100, file.bytes.subarray(100, 200))).body.error_type).toBe('NOT_FOUND');
      expect((await client.complete(id)).body.error_type).toBe('NOT_FOUND');
    }
    expect((await me.status('made-up-id')).body.error_type).toBe('NOT_FOUND');
    expect((await me.status(id)).body.received).toBe(100);
    // No session, no group with study_upload: refused as for the single upload.
    expect((await new SessionClient(server.url, 'upload/session', {}).create(10, emergency)).status).toBe(
      401,
    );
    const viewer = new SessionClient(server.url, 'upload/session', {
      sid: await server.api.login('viewer@demo.local'),
    });
    expect((await viewer.create(10, emergency)).body.error_type).toBe('NOT_PERMITTED');
    expect((await me.create(10, 'no-such-namespace')).body.error_type).toBe('NOT_FOUND');
  });

  it('bounds sizes: the declared file, each chunk and what one caller may hold open', async () => {
    const tooBig = await me.create(41 * MB, emergency);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error_type).toBe('FILE_TOO_LARGE');
    expect((await me.create(0, emergency)).body.error_type).toBe('INVALID_FIELD');

    const quotaUser = new SessionClient(server.url, 'upload/session', {
      sid: await server.api.login('clinician@demo.local'),
    });
    const big = await quotaUser.create(40 * MB, emergency);
    expect(big.status).toBe(200);
    const chunk = await quotaUser.chunk(big.body.id as string, 0, new Uint8Array(17 * MB));
    expect(chunk.status).toBe(413);
    expect(chunk.body.error_type).toBe('FILE_TOO_LARGE');
    const over = await quotaUser.create(9 * MB, emergency);
    expect(over.body.error_type).toBe('UPLOAD_QUOTA_EXCEEDED');
    expect((await quotaUser.status(big.body.id as string)).body.received).toBe(0);
  });

  it('refuses a resume by another file and a first chunk that is not the declared file', async () => {
    const mine = dicomFile(9010, 384, 384).bytes;
    // Same size, different bytes: what a dropped file of the same name, size and date could be.
    const other = mine.slice();
    other[1000] = other[1000]! ^ 0xff;
    const size = mine.byteLength;
    expect(size).toBeGreaterThan(UPLOAD_RESUME_HEAD_BYTES);
    const id = (await me.create(size, emergency, headOf(mine))).body.id as string;
    expect((await me.create(size, emergency, 'not-a-hash')).body).toMatchObject({
      error_type: 'INVALID_FIELD',
      error_subtype: 'head_sha256',
    });

    // The other file's bytes cannot start this session: refused, nothing held.
    await me.sendFrom(id, other.subarray(0, 32 * 1024), 0, 32 * 1024);
    const wrong = await me.chunk(id, 32 * 1024, other.subarray(32 * 1024, 96 * 1024));
    expect(wrong.status).toBe(412);
    expect(wrong.body.error_type).toBe('UPLOAD_RESUME_MISMATCH');
    expect((await me.status(id)).body.received).toBe(32 * 1024);

    // A resume presents the file's head: another file is refused, this one goes on.
    const refused = await me.status(id, headOf(other));
    expect(refused.status).toBe(412);
    expect(refused.body.error_type).toBe('UPLOAD_RESUME_MISMATCH');
    expect((await me.status(id, headOf(mine))).body.received).toBe(32 * 1024);
    // Its held start is the other file's, so it can never complete: the file starts over.
    const again = await me.chunk(id, 32 * 1024, mine.subarray(32 * 1024, 96 * 1024));
    expect(again.body.error_type).toBe('UPLOAD_RESUME_MISMATCH');
    const fresh = (await me.create(size, emergency, headOf(mine))).body.id as string;
    await me.sendFrom(fresh, mine, 0, 64 * 1024);
    expect((await me.complete(fresh)).status).toBe(202);

    // A session opened without a head hash is checked against the bytes once its head arrived.
    const legacy = dicomFile(9011, 384, 384).bytes;
    const old = (await me.create(legacy.byteLength, emergency)).body.id as string;
    expect((await me.status(old, headOf(mine))).body.received).toBe(0);
    await me.sendFrom(old, legacy.subarray(0, 2 * UPLOAD_RESUME_HEAD_BYTES), 0, UPLOAD_RESUME_HEAD_BYTES);
    expect((await me.status(old, headOf(mine))).body.error_type).toBe('UPLOAD_RESUME_MISMATCH');
    expect((await me.status(old, headOf(legacy))).body.received).toBe(2 * UPLOAD_RESUME_HEAD_BYTES);
  });

  it('takes a file sent whole in its first chunk as staged, still claimed and checked against its head', async () => {
    const file = dicomFile(9021, 128, 128).bytes;
    const size = file.byteLength;

    // Two at once in one process: the first places its staged bytes as the whole file (the file
    // store renames them into place, no copy), the second finds the file held. Counted as the
    // service asks: the object store's placeWhole places through its own place.
    const store = Object.getPrototypeOf(chunks.store) as UploadChunks;
    // Each is called back below with the `this` the service called it with.
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const { place, placeWhole } = store;
    const asked: string[] = [];
    let inWhole = false;
    vi.spyOn(store, 'placeWhole').mockImplementation(async function (this: UploadChunks, ...args) {
      asked.push('placeWhole');
      inWhole = true;
      try {
        return await placeWhole.apply(this, args);
      } finally {
        inWhole = false;
      }
    });
    vi.spyOn(store, 'place').mockImplementation(function (this: UploadChunks, ...args) {
      if (!inWhole) asked.push('place');
      return place.apply(this, args);
    });
    const id = (await me.create(size, emergency, headOf(file))).body.id as string;
    const [a, b] = await Promise.all([me.chunk(id, 0, file), me.chunk(id, 0, file)]);
    expect(asked).toEqual(['placeWhole']);
    vi.restoreAllMocks();
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.body.received, b.body.received]).toEqual([size, size]);
    expect(await heldBy(id)).toEqual(Buffer.from(file));
    expect(await chunks.staged()).toEqual([]);
    expect((await me.complete(id)).body).toMatchObject({ status: 'OK', duplicate: false });

    // Another file's bytes under this head hash: refused and nothing held (the next first chunk
    // replaces the bytes left in the session's file).
    const other = dicomFile(9022, 128, 128).bytes;
    const wrong = (await me.create(other.byteLength, emergency, headOf(file))).body.id as string;
    expect((await me.chunk(wrong, 0, other)).body.error_type).toBe('UPLOAD_RESUME_MISMATCH');
    expect((await me.status(wrong)).body.received).toBe(0);
    expect((await heldBy(wrong)).length).toBe(other.byteLength);

    // Another process's live claim still turns the whole-file chunk away with 409.
    const claimed = (await me.create(size, emergency)).body.id as string;
    const claimOf = (expires: number) =>
      server.ctx.db.kysely
        .updateTable('upload_sessions')
        .set({ claim: 'e'.repeat(32), claim_expires: expires })
        .where('id_hash', '=', hashToken(claimed))
        .execute();
    await claimOf(Date.now() + 60_000);
    const busy = await me.chunk(claimed, 0, file);
    expect(busy.status).toBe(409);
    expect(busy.body).toMatchObject({
      error_type: 'UPLOAD_CHUNK_IN_PROGRESS',
      error_data: { received: 0, size },
    });
    expect((await heldBy(claimed)).length).toBe(0);
    await claimOf(Date.now() - 1);
    expect((await me.chunk(claimed, 0, file)).body.received).toBe(size);
    expect(await heldBy(claimed)).toEqual(Buffer.from(file));
  });

  it('lets one of two concurrent appends at the same offset win, in one process or two', async () => {
    const size = 300 * 1024;
    const part = 100 * 1024;
    const bytesOf = (fill: number) => new Uint8Array(part).fill(fill);
    const held = async (id: string, from: number) => (await heldBy(id)).subarray(from, from + part);
    const uniform = (bytes: Uint8Array) => bytes.every((b) => b === bytes[0]);

    // One process: the requests queue; the second finds the chunk held and is answered unchanged.
    const id = (await me.create(size, emergency)).body.id as string;
    const [a, b] = await Promise.all([me.chunk(id, 0, bytesOf(0x41)), me.chunk(id, 0, bytesOf(0x42))]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.body.received, b.body.received]).toEqual([part, part]);
    expect(uniform(await held(id, 0))).toBe(true);

    // Two processes over the same database and chunk store: each has its own service.
    const db = server.ctx.db.kysely;
    const ownerKey = (
      await db
        .selectFrom('upload_sessions')
        .select('owner')
        .where('id_hash', '=', hashToken(id))
        .executeTakeFirstOrThrow()
    ).owner;
    const owner: UploadOwner = { key: ownerKey, mayUploadTo: () => true };
    const [first, second] = [processOf(), processOf()];

    // The first holds the claim while its body streams; the second is told 409 and changes nothing.
    const slow = new PassThrough();
    const running = first.append(owner, id, part, part, slow);
    slow.write(bytesOf(0x43).subarray(0, part / 2));
    await new Promise((r) => setTimeout(r, 50));
    const busy = await second
      .append(owner, id, part, part, Readable.from([Buffer.from(bytesOf(0x44))]))
      .catch((e: unknown) => e);
    expect(busy).toMatchObject({
      errorType: 'UPLOAD_CHUNK_IN_PROGRESS',
      kind: 'busy',
      data: { received: part, size },
    });
    const overHttp = await me.status(id);
    expect(overHttp.body.received).toBe(part);
    slow.end(bytesOf(0x43).subarray(part / 2));
    expect((await running).received).toBe(2 * part);
    expect(await held(id, part)).toEqual(Buffer.from(bytesOf(0x43)));

    // Both at once: exactly one writes; the bytes held are one body's, never a mix.
    const results = await Promise.allSettled(
      [first, second].map((p, i) =>
        p.append(owner, id, 2 * part, part, Readable.from([Buffer.from(bytesOf(0x45 + i))])),
      ),
    );
    expect((await me.status(id)).body.received).toBe(size);
    const bytes = await held(id, 2 * part);
    expect(uniform(bytes)).toBe(true);
    expect([0x45, 0x46]).toContain(bytes[0]);
    for (const r of results) {
      if (r.status === 'fulfilled') expect(r.value.received).toBe(size);
      else
        expect((r.reason as { errorType: string }).errorType).toMatch(
          /UPLOAD_CHUNK_IN_PROGRESS|UPLOAD_OFFSET_MISMATCH/,
        );
    }
    // No claim and no staging file is left behind.
    const row = await db
      .selectFrom('upload_sessions')
      .select(['claim', 'claim_expires'])
      .where('id_hash', '=', hashToken(id))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ claim: null, claim_expires: null });
    expect(await chunks.staged()).toEqual([]);

    // The claim of a process that died mid-append lapses: another append takes the offset over.
    const orphaned = (await me.create(size, emergency)).body.id as string;
    const claimOf = (claim: string, expires: number) =>
      db
        .updateTable('upload_sessions')
        .set({ claim, claim_expires: expires })
        .where('id_hash', '=', hashToken(orphaned))
        .execute();
    await claimOf('f'.repeat(32), Date.now() + 60_000);
    const blocked = await me.chunk(orphaned, 0, bytesOf(0x47));
    expect(blocked.status).toBe(409);
    expect(blocked.body).toMatchObject({
      error_type: 'UPLOAD_CHUNK_IN_PROGRESS',
      error_data: { received: 0, size },
    });
    await claimOf('f'.repeat(32), Date.now() - 1);
    expect((await me.chunk(orphaned, 0, bytesOf(0x47))).body.received).toBe(part);
    expect(await held(orphaned, 0)).toEqual(Buffer.from(bytesOf(0x47)));
  });

  it('refuses a corrupt file on completion, storing nothing and dropping the session', async () => {
    const good = dicomFile(9005).bytes;
    const before = await counts();
    for (const [name, bytes, errorType] of [
      ['text', new TextEncoder().encode('not DICOM at all, '.repeat(2000)), 'INVALID_DICOM'],
      ['truncated', good.slice(0, Math.floor(good.byteLength / 2)), 'INVALID_DICOM'],
    ] as const) {
      const id = (await me.create(bytes.byteLength, emergency)).body.id as string;
      await me.sendFrom(id, bytes, 0, 16 * 1024);
      const refused = await me.complete(id);
      expect(refused.status, name).toBe(412);
      expect(refused.body.error_type, name).toBe(errorType);
      expect((await me.status(id)).body.error_type, name).toBe('NOT_FOUND');
    }
    expect(await counts()).toEqual(before);
    const leftover = await server.ctx.db.kysely
      .selectFrom('upload_sessions')
      .select(['id_hash', 'received'])
      .where('answer', 'is', null)
      .execute();
    // Only the sessions other tests left open hold bytes, each that received any holding them (the
    // file store keeps an empty file from creation on, the object store an object per chunk).
    const holding = await chunks.sessions();
    expect(leftover.map((r) => r.id_hash)).toEqual(expect.arrayContaining(holding));
    expect(holding).toEqual(
      expect.arrayContaining(leftover.filter((r) => Number(r.received) > 0).map((r) => r.id_hash)),
    );
  });

  it("sweeps expired sessions, orphan temp files and dead appends' staging files, keeping live sessions' files", async () => {
    const id = (await me.create(1000, emergency)).body.id as string;
    await me.chunk(id, 0, new Uint8Array(10));
    const live = (await me.create(1000, emergency)).body.id as string;
    await me.chunk(live, 0, new Uint8Array(10));
    const leftByCrash = new TextEncoder().encode('left by a crash');
    await chunks.plantSession('a'.repeat(64), leftByCrash);
    await chunks.plantStaged(hashToken(live), '0'.repeat(32), leftByCrash);
    // The sweeper runs three days on, so every file or object is long unwritten (an object's write
    // time cannot be set back): a live session's bytes last written long ago (a paused upload) are
    // still its own.
    const later = Date.now() + 3 * 24 * 3600_000;
    await server.ctx.db.kysely
      .updateTable('upload_sessions')
      .set({ expires: Date.now() - 1 })
      .where('id_hash', '!=', hashToken(live))
      .execute();
    await server.ctx.db.kysely
      .updateTable('upload_sessions')
      .set({ expires: later + 3600_000 })
      .where('id_hash', '=', hashToken(live))
      .execute();
    const swept = await processOf(() => later).sweep();
    expect(swept.orphans).toBe(1);
    expect(swept.sessions).toBeGreaterThanOrEqual(1);
    expect(await chunks.sessions()).toEqual([hashToken(live)]);
    expect(await chunks.staged()).toEqual([]);
    expect((await heldBy(live)).subarray(0, 10)).toEqual(Buffer.alloc(10));
    await server.ctx.db.kysely.deleteFrom('upload_sessions').where('id_hash', '=', hashToken(live)).execute();
    await chunks.store.remove(hashToken(live));
    const rows = await server.ctx.db.kysely.selectFrom('upload_sessions').select('id_hash').execute();
    expect(rows).toEqual([]);
    expect((await me.status(id)).body.error_type).toBe('NOT_FOUND');
  });

  it('serves request-link uploads with the same calls, scoped to the grant', async () => {
    const added = await server.api.call(
      'link/add',
      {
        namespace_id: emergency,
        action: 'STUDY_UPLOAD',
        email: 'chunks@hospital.example',
        max_hits: 5,
        minutes_alive: 60,
      },
      sid,
    );
    const mail = await server.ctx.db.kysely
      .selectFrom('outbox')
      .select('body')
      .where('to_address', '=', 'chunks@hospital.example')
      .executeTakeFirstOrThrow();
    const token = /\/link\/([A-Za-z0-9_-]+)/.exec(mail.body)![1]!;
    const grantOf = async () => (await server.api.call('link/public/unlock', { token })).body.grant as string;
    const link = new SessionClient(server.url, 'link/public/upload/session', { grant: await grantOf() });
    const other = new SessionClient(server.url, 'link/public/upload/session', { grant: await grantOf() });

    const file = dicomFile(9006, 384, 384);
    const id = (await link.create(file.bytes.byteLength)).body.id as string;
    await link.sendFrom(id, file.bytes.subarray(0, 64 * 1024), 0, 64 * 1024);
    // Another grant of the same link, or a signed-in user, cannot reach it.
    expect((await other.status(id)).body.error_type).toBe('NOT_FOUND');
    expect((await me.status(id)).body.error_type).toBe('NOT_FOUND');
    await link.sendFrom(id, file.bytes, (await link.status(id)).body.received as number, 64 * 1024);
    const done = await link.complete(id);
    expect(done.status).toBe(202);
    expect(done.body.study_uid).toBe(file.spec.studyInstanceUid);
    const study = await server.api.get('study/get', { sid, uuid: done.body.study_uuid });
    expect(study.body.study_uid).toBe(file.spec.studyInstanceUid);
    // Recorded as every link upload is: source AE LINK, audited with source kind link and no user.
    expect(study.body.source_ae_title).toBe('LINK');
    const created = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['user_id', 'detail'])
      .where('object_id', '=', done.body.study_uuid)
      .where('action', '=', 'CREATE')
      .executeTakeFirstOrThrow();
    const detail = typeof created.detail === 'string' ? JSON.parse(created.detail) : created.detail;
    expect([created.user_id, detail.source]).toEqual([null, 'link']);

    // A revoked link closes its open sessions with the link's one answer.
    const open = (await link.create(100)).body.id as string;
    expect((await server.api.call('link/delete', { uuid: added.body.uuid }, sid)).status).toBe(200);
    expect((await link.status(open)).body.error_type).toBe('NO_LINK_ERROR');
    expect((await link.chunk(open, 0, new Uint8Array(100))).body.error_type).toBe('NO_LINK_ERROR');
    expect(
      (await new SessionClient(server.url, 'link/public/upload/session', { grant: 'forged' }).create(10)).body
        .error_type,
    ).toBe('NO_LINK_ERROR');
  });
});
