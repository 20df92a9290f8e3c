// Node has no IndexedDB: its globals (IDBKeyRange, which the store's range reads use) from fake-indexeddb.
import 'fake-indexeddb/auto';
import { IDBDatabase, IDBFactory, IDBObjectStore } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { idbResumeStore } from './resume-idb';
import { dropLegacyRecords, LEGACY_PREFIX, RESUME_TTL_MS } from './resume-store';

// fake-indexeddb is a complete IndexedDB in plain JavaScript: the unit tests run in Node, which has
// none. Every store below opens a real database in it; nothing of ours is stubbed.

/** localStorage's interface over a Map. */
function memoryStorage(entries: Record<string, string> = {}): Storage {
  const map = new Map(Object.entries(entries));
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

const quiet = () => undefined;

afterEach(() => vi.restoreAllMocks());

describe('the IndexedDB resume store', () => {
  it('keeps records across page loads, read one by one or many at once', async () => {
    const factory = new IDBFactory();
    const first = idbResumeStore({ factory, log: quiet });
    await first.set('ns1', 'a', { session: 's1' });
    await first.set('ns1', 'b', { done: 1 });
    await first.set('ns2', 'a', { done: 1 });
    // Seen by this page at once; in IndexedDB once flushed (at the latest RESUME_FLUSH_EVERY_MS later).
    expect(await first.get('ns1', 'a')).toMatchObject({ session: 's1' });
    await first.flush();
    expect(first.durable()).toBe(true);

    // A reload: a new store over the same browser database.
    const reloaded = idbResumeStore({ factory, log: quiet });
    expect(await reloaded.get('ns1', 'a')).toMatchObject({ session: 's1' });
    expect(await reloaded.getMany('ns1', ['b', 'missing', 'a'])).toEqual([
      expect.objectContaining({ done: 1 }),
      null,
      expect.objectContaining({ session: 's1' }),
    ]);
    expect(await reloaded.get('ns3', 'a')).toBeNull();
    await reloaded.set('ns1', 'a', { done: 1 });
    await reloaded.remove('ns1', 'b');
    expect(await reloaded.getMany('ns1', ['a', 'b'])).toEqual([expect.objectContaining({ done: 1 }), null]);
    await reloaded.flush();
    const again = idbResumeStore({ factory, log: quiet });
    expect(await again.getMany('ns1', ['a', 'b'])).toEqual([expect.objectContaining({ done: 1 }), null]);
  });

  it('prunes lapsed records and keeps at most maxRecords, dropping the oldest', async () => {
    const factory = new IDBFactory();
    let now = 1_000_000;
    const clock = () => now;
    const store = idbResumeStore({ factory, now: clock, maxRecords: 4, pruneEvery: 3, log: quiet });
    for (const key of ['old1', 'old2']) await store.set('ns', key, { done: 1 });
    await store.flush();
    now += RESUME_TTL_MS - 1000;
    // Not read back once lapsed, even before a prune removed them.
    expect(await store.get('ns', 'old1')).not.toBeNull();
    now += 2000;
    expect(await store.get('ns', 'old1')).toBeNull();

    // The third write prunes: both lapsed records go.
    await store.set('ns', 'k1', { done: 1 });
    await store.flush();
    const count = async () => {
      const db = await new Promise<IDBDatabase>((resolve) => {
        const r = factory.open('imaging-inbox-upload-resume');
        r.onsuccess = () => resolve(r.result);
      });
      const n = await new Promise<number>((resolve) => {
        const r = db.transaction('records').objectStore('records').count();
        r.onsuccess = () => resolve(r.result);
      });
      db.close();
      return n;
    };
    expect(await count()).toBe(1);

    for (const key of ['k2', 'k3', 'k4', 'k5', 'k6']) {
      now += 1;
      await store.set('ns', key, { done: 1 });
      await store.flush();
    }
    // Opening prunes too: six records, four kept, the two oldest gone.
    const reopened = idbResumeStore({ factory, now: clock, maxRecords: 4, log: quiet });
    expect((await reopened.getMany('ns', ['k1', 'k2', 'k3', 'k6'])).map((r) => r !== null)).toEqual([
      false,
      false,
      true,
      true,
    ]);
    expect(await count()).toBe(4);

    // A day's worth of lapsed records goes in batches, in the background, while the page reads.
    const busy = idbResumeStore({ factory, now: clock, pruneEvery: 1_000_000, log: quiet });
    for (let i = 0; i < 1200; i++) await busy.set('ns', `day${i}`, { done: 1 });
    await busy.flush();
    now += RESUME_TTL_MS;
    const next = idbResumeStore({ factory, now: clock, log: quiet });
    expect(await next.get('ns', 'day1')).toBeNull();
    await vi.waitFor(async () => expect(await count()).toBe(0));
  });

  it('goes on in memory when the quota is full, and says once that resume is unavailable', async () => {
    const factory = new IDBFactory();
    const log = vi.fn();
    const store = idbResumeStore({ factory, log });
    await store.set('ns', 'before', { session: 's-before' });
    await store.flush();
    const told = vi.fn();
    store.onUnavailable(told);

    // fake-indexeddb has no quota: make its writes refuse the way a full origin's do.
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    await expect(store.set('ns', 'after', { session: 's-after' })).resolves.toBeUndefined();
    await store.set('ns', 'later', { done: 1 });
    await store.flush();
    expect(store.durable()).toBe(false);
    expect(told).toHaveBeenCalledTimes(1);
    expect(told).toHaveBeenCalledWith('QuotaExceededError');
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0]![0]).toMatch(/resume is unavailable \(QuotaExceededError\)/);
    // This page still resumes what it wrote (memory) and what was stored before (IndexedDB).
    expect(await store.getMany('ns', ['before', 'after', 'later'])).toEqual([
      expect.objectContaining({ session: 's-before' }),
      expect.objectContaining({ session: 's-after' }),
      expect.objectContaining({ done: 1 }),
    ]);
    // A listener that comes late is told as well.
    const late = vi.fn();
    store.onUnavailable(late);
    await Promise.resolve();
    expect(late).toHaveBeenCalledWith('QuotaExceededError');
  });

  it('works without IndexedDB (missing, or refused as in private windows), in memory only', async () => {
    for (const factory of [
      null,
      Object.assign(new IDBFactory(), {
        open: () => {
          throw new DOMException('A mutation operation was attempted', 'InvalidStateError');
        },
      }),
    ]) {
      const told = vi.fn();
      const store = idbResumeStore({ factory, log: quiet });
      store.onUnavailable(told);
      await store.set('ns', 'a', { session: 's1' });
      expect(await store.get('ns', 'a')).toMatchObject({ session: 's1' });
      expect(store.durable()).toBe(false);
      await Promise.resolve();
      expect(told).toHaveBeenCalledTimes(1);
    }
  });

  it("answers a run's files from one read of their keys, and reads what it was not asked together", async () => {
    const factory = new IDBFactory();
    const before = idbResumeStore({ factory, log: quiet });
    for (let i = 0; i < 20; i++) await before.set('ns', `f${i}`, { done: 1 });
    await before.flush();

    const store = idbResumeStore({ factory, log: quiet });
    await store.get('ns', 'warm');
    const get = vi.spyOn(IDBObjectStore.prototype, 'get');
    const spy = vi.spyOn(IDBDatabase.prototype, 'transaction');
    const keys = Array.from({ length: 25 }, (_, i) => `f${i}`);
    // Before the run: every file's record in one transaction.
    const found = await store.getMany('ns', keys);
    expect(found.filter((r) => r?.done)).toHaveLength(20);
    expect([spy.mock.calls.length, get.mock.calls.length]).toEqual([1, 25]);
    // The run: each file's record, stored or not, without going to IndexedDB again.
    const during = await Promise.all(keys.map((key) => store.get('ns', key)));
    expect(during).toEqual(found);
    expect([spy.mock.calls.length, get.mock.calls.length]).toEqual([1, 25]);
    // Keys nobody read before, asked for at once: one more transaction for all of them.
    const late = await Promise.all(['f1', 'x1', 'x2', 'x3'].map((key) => store.get('other', key)));
    expect(late).toEqual([null, null, null, null]);
    expect([spy.mock.calls.length, get.mock.calls.length]).toEqual([2, 29]);
    expect(await store.get('other', 'x1')).toBeNull();
    expect(spy).toHaveBeenCalledTimes(2);

    // This page's own writes win over what is read again, before and after they are flushed.
    await store.set('ns', 'f21', { session: 'new' });
    await store.remove('ns', 'f2');
    const mine = ['f21', 'f2', 'f3'];
    const expected = [
      expect.objectContaining({ session: 'new' }),
      null,
      expect.objectContaining({ done: 1 }),
    ];
    expect(await store.getMany('ns', mine)).toEqual(expected);
    await store.flush();
    expect(await idbResumeStore({ factory, log: quiet }).getMany('ns', mine)).toEqual(expected);
    // A new run's read forgets the last one's answers; what this page wrote is read back from IndexedDB.
    await store.getMany('ns', ['f0']);
    get.mockClear();
    expect(await store.get('ns', 'f21')).toMatchObject({ session: 'new' });
    expect(await store.get('ns', 'f2')).toBeNull();
    expect(get).toHaveBeenCalledTimes(2);
  });

  it('writes the records of many files in one transaction, and flushes by itself', async () => {
    const factory = new IDBFactory();
    const dbName = 'batched-writes';
    const store = idbResumeStore({ factory, dbName, log: quiet, flushEveryMs: 20, flushAt: 50 });
    await store.get('ns', 'warm');
    const spy = vi.spyOn(IDBDatabase.prototype, 'transaction');
    // Writes of this store only (other tests' stores may still prune in the background).
    const writes = () =>
      spy.mock.calls.filter(
        (call, i) =>
          call[1] === 'readwrite' && (spy.mock.contexts[i] as IDBDatabase | undefined)?.name === dbName,
      );
    for (let i = 0; i < 30; i++) await store.set('ns', `f${i}`, { done: 1 });
    await store.remove('ns', 'f0');
    expect(writes()).toHaveLength(0);
    // Nobody flushes: the queued writes go within flushEveryMs, in one transaction.
    await vi.waitFor(() => expect(writes()).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(writes()).toHaveLength(1);
    const reloaded = idbResumeStore({ factory, dbName, log: quiet });
    expect(await reloaded.getMany('ns', ['f29', 'f0'])).toEqual([expect.objectContaining({ done: 1 }), null]);

    // flushAt writes go at once, without waiting for the timer.
    const patient = idbResumeStore({ factory, dbName, log: quiet, flushEveryMs: 60_000, flushAt: 50 });
    await patient.get('ns', 'warm');
    spy.mockClear();
    for (let i = 0; i < 49; i++) await patient.set('ns', `g${i}`, { done: 1 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(writes()).toHaveLength(0);
    await patient.set('ns', 'g49', { done: 1 });
    await vi.waitFor(() => expect(writes()).toHaveLength(1));
    expect(await idbResumeStore({ factory, dbName, log: quiet }).get('ns', 'g0')).toMatchObject({ done: 1 });
  });

  it('deletes the records the old localStorage store left, and nothing else', () => {
    const storage = memoryStorage({
      [`${LEGACY_PREFIX}ns:IM1|10|0|`]: '{"done":1,"at":1}',
      [`${LEGACY_PREFIX}ns:IM2|10|0|`]: 'not json',
      'imaging-inbox.sid': 'keep me',
    });
    expect(dropLegacyRecords(storage)).toBe(2);
    expect(storage.length).toBe(1);
    expect(storage.getItem('imaging-inbox.sid')).toBe('keep me');
    expect(dropLegacyRecords(null)).toBe(0);
  });
});
