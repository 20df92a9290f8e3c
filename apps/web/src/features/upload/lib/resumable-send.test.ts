import { describe, expect, it } from 'vitest';
import type { ImageUploadAnswer, UploadSessionAnswer } from '@imaging-inbox/contract';
import { ApiError } from '../../../lib/api-error';
import type { UploadSessionApi } from '../api/upload-session';
import { createResumeStore, fileKey } from './resume-store';
import { sendResumable } from './resumable-send';

const answer = (duplicate = false): ImageUploadAnswer => ({
  status: 'OK',
  study_uid: '1.2',
  series_uid: '1.2.3',
  sop_instance_uid: '1.2.3.4',
  study_uuid: 'u',
  duplicate,
});

/** A server that holds bytes per session the way the real one does, and records what was sent. */
function fakeServer() {
  const sessions = new Map<string, { size: number; received: number; done: boolean }>();
  const sent: { id: string; offset: number; size: number }[] = [];
  let wholes = 0;
  let next = 1;
  const present = (id: string): UploadSessionAnswer => {
    const s = sessions.get(id);
    if (!s) throw new ApiError('NOT_FOUND', 412);
    return { status: 'OK', id, size: s.size, received: s.received, expires: 0, completed: s.done ? 1 : 0 };
  };
  const api: UploadSessionApi = {
    create: async (size) => {
      await Promise.resolve();
      const id = `s${next++}`;
      sessions.set(id, { size, received: 0, done: false });
      return present(id);
    },
    status: (id) => Promise.resolve().then(() => present(id)),
    chunk: async (id, offset, bytes) => {
      await Promise.resolve();
      const s = sessions.get(id)!;
      if (offset !== s.received) {
        throw new ApiError('UPLOAD_OFFSET_MISMATCH', 412, {
          error_data: { received: s.received, size: s.size },
        });
      }
      sent.push({ id, offset, size: bytes.size });
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

/** localStorage's interface over a Map (the unit tests run in Node). */
function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    key: (i) => [...map.keys()][i] ?? null,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
    clear: () => map.clear(),
  };
}

const file = (size: number, name = 'IM1') =>
  new File([new Uint8Array(size)], name, { lastModified: 1_700_000_000_000 });

describe('sendResumable', () => {
  it('sends a small file whole and a large one in chunks, then skips both once stored', async () => {
    const server = fakeServer();
    const store = createResumeStore(memoryStorage());
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
    expect(store.get('ns1', fileKey(small, '1.1'))?.done).toBe(1);
  });

  it('goes on from the offset the server holds after an interruption, sending no held byte again', async () => {
    const server = fakeServer();
    const store = createResumeStore(memoryStorage());
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
    const store = createResumeStore(memoryStorage());
    const big = file(300, 'gone');
    store.set('ns3', fileKey(big), { session: 'expired-one' });
    await sendResumable({ file: big }, { api: server.api, store, scope: 'ns3', chunkBytes: 100 });
    expect(server.sent.map((c) => c.offset)).toEqual([0, 100, 200]);

    // Another tab already sent the first chunk of the same session: this one follows the server.
    const shared = file(300, 'shared');
    const { id } = await server.api.create(300);
    await server.api.chunk(id, 0, shared.slice(0, 100));
    store.set('ns3', fileKey(shared), { session: id });
    const stale: UploadSessionApi = {
      ...server.api,
      status: async (sid) => ({ ...(await server.api.status(sid)), received: 0 }),
    };
    await sendResumable({ file: shared }, { api: stale, store, scope: 'ns3', chunkBytes: 100 });
    expect(server.sessions.get(id)).toMatchObject({ received: 300, done: true });
  });
});
