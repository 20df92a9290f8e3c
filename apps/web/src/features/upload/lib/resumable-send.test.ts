import { createHash } from 'node:crypto';
// Node has no IndexedDB: its globals (IDBKeyRange, which the store's range reads use) from fake-indexeddb.
import 'fake-indexeddb/auto';
import { IDBFactory, IDBObjectStore } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ImageUploadAnswer, UploadSessionAnswer } from '@imaging-inbox/contract';
import { UPLOAD_RESUME_HEAD_BYTES } from '@imaging-inbox/contract';
import { ApiError } from '../../../lib/api-error';
import type { UploadSessionApi } from '../api/upload-session';
import { fileKey } from './file-identity';
import { idbResumeStore } from './resume-idb';
import { sendResumable } from './resumable-send';

const answer = (duplicate = false): ImageUploadAnswer => ({
  status: 'OK',
  study_uid: '1.2',
  series_uid: '1.2.3',
  sop_instance_uid: '1.2.3.4',
  study_uuid: 'u',
  duplicate,
});

/**
 * A server that holds bytes per session the way the real one does (offsets, the head hash declared
 * at create and checked on resume and on the chunk completing the head), and records what was sent.
 */
function fakeServer() {
  interface Session {
    size: number;
    received: number;
    done: boolean;
    head?: string;
    bytes: Buffer[];
  }
  const sessions = new Map<string, Session>();
  const sent: { id: string; offset: number; size: number }[] = [];
  let wholes = 0;
  let next = 1;
  const headOf = (s: Session) =>
    createHash('sha256')
      .update(Buffer.concat(s.bytes).subarray(0, Math.min(s.size, UPLOAD_RESUME_HEAD_BYTES)))
      .digest('hex');
  const present = (id: string): UploadSessionAnswer => {
    const s = sessions.get(id);
    if (!s) throw new ApiError('NOT_FOUND', 412);
    return { status: 'OK', id, size: s.size, received: s.received, expires: 0, completed: s.done ? 1 : 0 };
  };
  const api: UploadSessionApi = {
    create: async (size, _signal, head) => {
      await Promise.resolve();
      const id = `s${next++}`;
      sessions.set(id, { size, received: 0, done: false, head, bytes: [] });
      return present(id);
    },
    status: async (id, _signal, head) => {
      await Promise.resolve();
      const s = sessions.get(id);
      const n = Math.min(s?.size ?? 0, UPLOAD_RESUME_HEAD_BYTES);
      const held = s?.head ?? (s && s.received >= n ? headOf(s) : undefined);
      if (head && held && head !== held) throw new ApiError('UPLOAD_RESUME_MISMATCH', 412);
      return present(id);
    },
    chunk: async (id, offset, bytes) => {
      await Promise.resolve();
      const s = sessions.get(id)!;
      if (offset !== s.received) {
        throw new ApiError('UPLOAD_OFFSET_MISMATCH', 412, {
          error_data: { received: s.received, size: s.size },
        });
      }
      const data = Buffer.from(await bytes.arrayBuffer());
      const n = Math.min(s.size, UPLOAD_RESUME_HEAD_BYTES);
      if (s.head && offset < n && offset + data.length >= n) {
        if (headOf({ ...s, bytes: [...s.bytes, data] }) !== s.head) {
          throw new ApiError('UPLOAD_RESUME_MISMATCH', 412);
        }
      }
      sent.push({ id, offset, size: bytes.size });
      s.bytes.push(data);
      s.received += bytes.size;
      return present(id);
    },
    complete: async (id) => {
      await Promise.resolve();
      const s = sessions.get(id)!;
      if (s.received !== s.size) throw new ApiError('UPLOAD_INCOMPLETE', 412);
      s.done = true;
      return answer();
    },
    whole: async () => {
      await Promise.resolve();
      wholes++;
      return answer();
    },
  };
  return { api, sessions, sent, wholes: () => wholes };
}

/** A resume store over a fresh IndexedDB (fake-indexeddb: a real one in plain JavaScript). */
const newStore = () => idbResumeStore({ factory: new IDBFactory(), log: () => undefined });

const file = (size: number, name = 'IM1', fill = 0) =>
  new File([new Uint8Array(size).fill(fill)], name, { lastModified: 1_700_000_000_000 });

afterEach(() => vi.restoreAllMocks());

describe('sendResumable', () => {
  it('sends a small file whole and a large one in chunks, then skips both once stored', async () => {
    const server = fakeServer();
    const store = newStore();
    const ctx = { api: server.api, store, scope: 'ns1', chunkBytes: 100 };
    const small = file(80, 'small');
    const large = file(350, 'large');
    const held: number[] = [];
    expect(await sendResumable({ file: small, sopInstanceUid: '1.1' }, ctx)).toEqual({
      duplicate: false,
      skipped: false,
    });
    await sendResumable({ file: large, sopInstanceUid: '1.2' }, { ...ctx, onHeld: (n) => held.push(n) });
    expect(server.wholes()).toBe(1);
    expect(server.sent.map((c) => [c.offset, c.size])).toEqual([
      [0, 100],
      [100, 100],
      [200, 100],
      [300, 50],
    ]);
    expect(held).toEqual([0, 100, 200, 300, 350]);
    // A reloaded page picks the same files: nothing is sent again.
    const again = await sendResumable({ file: large, sopInstanceUid: '1.2' }, ctx);
    expect(again.skipped).toBe(true);
    expect(server.sent).toHaveLength(4);
    expect((await store.get('ns1', await fileKey(small, '1.1')))?.done).toBe(1);
  });

  it('goes on from the offset the server holds after an interruption, sending no held byte again', async () => {
    const server = fakeServer();
    const store = newStore();
    let failAt = 2;
    const flaky: UploadSessionApi = {
      ...server.api,
      chunk: async (...args) => {
        if (failAt-- === 0) throw new ApiError('NETWORK_ERROR', 0);
        return server.api.chunk(...args);
      },
    };
    const big = file(500, 'big');
    const ctx = { api: flaky, store, scope: 'ns2', chunkBytes: 100 };
    await expect(sendResumable({ file: big }, ctx)).rejects.toThrow('NETWORK_ERROR');
    expect(server.sent.map((c) => c.offset)).toEqual([0, 100]);
    // The retry (or the next page load) finds the session and continues at 200.
    const held: number[] = [];
    await sendResumable({ file: big }, { ...ctx, onHeld: (n) => held.push(n) });
    expect(server.sent.map((c) => c.offset)).toEqual([0, 100, 200, 300, 400]);
    expect(held[0]).toBe(200);
    expect(server.sessions.size).toBe(1);
  });

  it('starts over when the remembered session is gone, and follows the server on an offset mismatch', async () => {
    const server = fakeServer();
    const store = newStore();
    const big = file(300, 'gone');
    await store.set('ns3', await fileKey(big), { session: 'expired-one' });
    await sendResumable({ file: big }, { api: server.api, store, scope: 'ns3', chunkBytes: 100 });
    expect(server.sent.map((c) => c.offset)).toEqual([0, 100, 200]);

    // Another tab already sent the first chunk of the same session: this one follows the server.
    const shared = file(300, 'shared');
    const { id } = await server.api.create(300);
    await server.api.chunk(id, 0, shared.slice(0, 100));
    await store.set('ns3', await fileKey(shared), { session: id });
    const stale: UploadSessionApi = {
      ...server.api,
      status: async (sid, signal, head) => ({ ...(await server.api.status(sid, signal, head)), received: 0 }),
    };
    await sendResumable({ file: shared }, { api: stale, store, scope: 'ns3', chunkBytes: 100 });
    expect(server.sessions.get(id)).toMatchObject({ received: 300, done: true });
  });

  it('keys dropped files by content: two of the same name, size and date never share a session', async () => {
    const server = fakeServer();
    const store = newStore();
    const first = file(500, 'IM1', 1);
    const second = file(500, 'IM1', 2);
    expect(await fileKey(first)).not.toBe(await fileKey(second));
    let failAt = 1;
    const flaky: UploadSessionApi = {
      ...server.api,
      chunk: async (...args) => {
        if (failAt-- === 0) throw new ApiError('NETWORK_ERROR', 0);
        return server.api.chunk(...args);
      },
    };
    const ctx = { api: flaky, store, scope: 'ns4', chunkBytes: 100 };
    await expect(sendResumable({ file: first }, ctx)).rejects.toThrow('NETWORK_ERROR');
    // The other file of the same name is not taken for the interrupted one: its own session.
    await sendResumable({ file: second }, ctx);
    expect(server.sessions.size).toBe(2);
    expect(server.sessions.get('s1')).toMatchObject({ received: 100, done: false });
    expect(Buffer.concat(server.sessions.get('s2')!.bytes).every((b) => b === 2)).toBe(true);
    // A file picked from a folder keeps its path as its identity (no content read).
    const picked = file(10, 'IM9');
    Object.defineProperty(picked, 'webkitRelativePath', { value: 'CD/IM9' });
    expect(await fileKey(picked, '1.9')).toBe(`CD/IM9|10|${picked.lastModified}|1.9`);
  });

  it('starts a file over when the remembered session holds another file (refused on resume)', async () => {
    const server = fakeServer();
    const store = newStore();
    const mine = file(300, 'IM1', 7);
    const other = file(300, 'IM1', 8);
    // A record pointing at another file's session (a key collision, or a record from before).
    await sendResumable({ file: other }, { api: server.api, store, scope: 'ns5', chunkBytes: 100 });
    await store.set('ns5', await fileKey(mine), { session: 's1' });
    await sendResumable({ file: mine }, { api: server.api, store, scope: 'ns5', chunkBytes: 100 });
    expect(server.sessions.get('s1')!.bytes.every((b) => b.every((x) => x === 8))).toBe(true);
    expect(server.sessions.get('s2')).toMatchObject({ received: 300, done: true });
    expect(Buffer.concat(server.sessions.get('s2')!.bytes).every((b) => b === 7)).toBe(true);
    expect(await store.get('ns5', await fileKey(mine))).toMatchObject({ done: 1 });
  });

  it('starts over once when the chunk completing the head is refused, and waits out a running append', async () => {
    const server = fakeServer();
    const store = newStore();
    const mine = file(300, 'IM1', 3);
    // A session declared for this file whose first bytes came from another file.
    const { id } = await server.api.create(300);
    await server.api.chunk(id, 0, file(100, 'x', 4));
    server.sessions.get(id)!.head = createHash('sha256').update(Buffer.alloc(300, 3)).digest('hex');
    await store.set('ns6', await fileKey(mine), { session: id });
    let busy = 1;
    const api: UploadSessionApi = {
      ...server.api,
      chunk: async (...args) => {
        // The first chunk of the new session meets an earlier attempt still appending (409).
        if (args[0] !== id && busy-- > 0) throw new ApiError('UPLOAD_CHUNK_IN_PROGRESS', 409);
        return server.api.chunk(...args);
      },
    };
    await sendResumable({ file: mine }, { api, store, scope: 'ns6', chunkBytes: 100 });
    // Its bytes up to the head's end were refused: it holds what it held before that chunk.
    expect(server.sessions.get(id)!.received).toBe(200);
    const fresh = [...server.sessions.entries()].find(([sid]) => sid !== id)!;
    expect(fresh[1]).toMatchObject({ received: 300, done: true });
    expect(Buffer.concat(fresh[1].bytes).equals(Buffer.alloc(300, 3))).toBe(true);
  });

  it('reads the resume records once for a run of files, not once per file', async () => {
    const server = fakeServer();
    const factory = new IDBFactory();
    const earlier = idbResumeStore({ factory, log: () => undefined });
    const files = Array.from({ length: 12 }, (_, i) => file(50, `IM${i}`, i));
    await earlier.set('ns8', await fileKey(files[0]!, '1.0'), { done: 1 });
    await earlier.flush();

    const store = idbResumeStore({ factory, log: () => undefined });
    const ctx = { api: server.api, store, scope: 'ns8', chunkBytes: 100 };
    // What the wizard's Select Exams step (and the link page) do before a run: one read of all keys.
    await store.getMany('ns8', await Promise.all(files.map((f, i) => fileKey(f, `1.${i}`, 100))));
    const get = vi.spyOn(IDBObjectStore.prototype, 'get');
    const results = await Promise.all(
      files.map((f, i) => sendResumable({ file: f, sopInstanceUid: `1.${i}` }, ctx)),
    );
    expect(results.map((r) => r.skipped)).toEqual([true, ...Array<boolean>(11).fill(false)]);
    expect(server.wholes()).toBe(11);
    expect(get).not.toHaveBeenCalled();
    // The marks reach IndexedDB together: a reloaded page skips every file.
    await store.flush();
    const reloaded = idbResumeStore({ factory, log: () => undefined });
    const again = await Promise.all(
      files.map((f, i) => sendResumable({ file: f, sopInstanceUid: `1.${i}` }, { ...ctx, store: reloaded })),
    );
    expect(again.every((r) => r.skipped)).toBe(true);
    // Without the read before the run, each file is read as it is sent (misses at once share a read).
    expect(get).toHaveBeenCalledTimes(12);
  });

  it('reads no fingerprint of a dropped file sent whole, but keeps it for one sent in chunks', async () => {
    const server = fakeServer();
    const store = newStore();
    const digest = vi.spyOn(globalThis.crypto.subtle, 'digest');
    const ctx = { api: server.api, store, scope: 'ns9', chunkBytes: 100 };
    // Sent whole, with its SOP Instance UID: no content read, keyed by name, size, date and UID.
    const small = file(80, 'IM1', 1);
    await sendResumable({ file: small, sopInstanceUid: '1.1' }, ctx);
    expect(digest).not.toHaveBeenCalled();
    expect(await fileKey(small, '1.1', 100)).toBe(`IM1|80|${small.lastModified}|1.1`);
    // Sent whole without a UID: its name, size and date could name another file, so it is read.
    expect(await fileKey(file(80, 'IM2', 1), '', 100)).toMatch(/^IM2\|80\|\d+\|\|[0-9a-f]{32}$/);

    // Sent in chunks: two files of the same name, size, date and even UID never share a session.
    digest.mockClear();
    const first = file(500, 'IM3', 5);
    const changed = file(500, 'IM3', 6);
    expect(await fileKey(first, '1.3', 100)).not.toBe(await fileKey(changed, '1.3', 100));
    expect(digest).toHaveBeenCalled();
    let failAt = 1;
    const flaky: UploadSessionApi = {
      ...server.api,
      chunk: async (...args) => {
        if (failAt-- === 0) throw new ApiError('NETWORK_ERROR', 0);
        return server.api.chunk(...args);
      },
    };
    await expect(
      sendResumable({ file: first, sopInstanceUid: '1.3' }, { ...ctx, api: flaky }),
    ).rejects.toThrow('NETWORK_ERROR');
    await sendResumable({ file: changed, sopInstanceUid: '1.3' }, ctx);
    const [interrupted, fresh] = [...server.sessions.values()];
    expect(interrupted).toMatchObject({ received: 100, done: false });
    expect(fresh).toMatchObject({ received: 500, done: true });
    expect(Buffer.concat(fresh!.bytes).every((b) => b === 6)).toBe(true);
    // Even a record pointing the changed file at the other's session is refused by the head hash.
    await store.set('ns9', await fileKey(changed, '1.3', 100), { session: [...server.sessions.keys()][0]! });
    const before = server.sessions.size;
    await sendResumable({ file: changed, sopInstanceUid: '1.3' }, ctx);
    expect(server.sessions.size).toBe(before + 1);
    expect(interrupted).toMatchObject({ received: 100, done: false });
  });
});
