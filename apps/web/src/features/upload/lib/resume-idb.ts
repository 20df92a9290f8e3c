import {
  dropLegacyRecords,
  isLive,
  RESUME_MAX_RECORDS,
  RESUME_TTL_MS,
  recordId,
  type ResumeRecord,
  type ResumeStore,
} from './resume-store';

/**
 * Resume records in IndexedDB: one object store keyed by `<destination>:<file key>`, with an index
 * on the time each record was written, pruned of lapsed records and bounded in count when the page
 * opens it and every `pruneEvery` writes. localStorage held them before; with its 5–10 MB quota a
 * day of hospital uploads filled it and resume stopped without a word.
 *
 * Off the per-file path: the records of a run's files are read in one transaction before it
 * starts (`getMany`, which the wizard's Select Exams step and the link page call with every file's
 * key), and each file's `get` is then answered from those answers and this page's own writes; a
 * key never read goes to IndexedDB with the other misses of the same moment, in one transaction.
 * Writes are queued and go in one transaction per `flushEveryMs` (or per `flushAt` records). An
 * upload of 2,000 small files spent two IndexedDB round trips per file in its critical path before
 * (about 12 ms of a 40–60 ms file), one read and one committed write. A reload loses at most the
 * last `flushEveryMs` of marks, and those files are only sent again (the server answers them as
 * duplicates); an upload session's record is flushed before its first chunk goes. Reading a whole
 * destination instead (getAll over its key range) was tried: with 50,000 records it took 0.4–0.9 s
 * in Chromium, against 70–150 ms for 2,000 keys.
 *
 * Whatever IndexedDB refuses (missing, private mode, quota, a closed connection) the upload goes
 * on: records are then kept in memory for this page only, and `onUnavailable` listeners (the UI's
 * notice) and the console are told once that an interrupted upload will start over.
 */
export const RESUME_DB_NAME = 'imaging-inbox-upload-resume';
const STORE = 'records';
const BY_CREATED = 'created';

/** How long a write waits for others to share its transaction, and how many it waits for at most. */
export const RESUME_FLUSH_EVERY_MS = 100;
export const RESUME_FLUSH_AT = 500;

interface StoredRecord extends ResumeRecord {
  id: string;
}

export interface IdbResumeOptions {
  /** The browser's indexedDB, or null where it is missing. */
  factory: IDBFactory | null;
  dbName?: string;
  now?: () => number;
  maxRecords?: number;
  pruneEvery?: number;
  flushEveryMs?: number;
  flushAt?: number;
  log?: (message: string) => void;
}

export function idbResumeStore(options: IdbResumeOptions): ResumeStore {
  const { factory, dbName = RESUME_DB_NAME, now = Date.now, maxRecords = RESUME_MAX_RECORDS } = options;
  const pruneEvery = options.pruneEvery ?? 1000;
  const flushEveryMs = options.flushEveryMs ?? RESUME_FLUSH_EVERY_MS;
  const flushAt = options.flushAt ?? RESUME_FLUSH_AT;
  const log = options.log ?? ((message: string) => console.warn(message));
  // What this page wrote and IndexedDB does not hold yet, by record id (null: deleted): newer than
  // anything read, and all there is once IndexedDB gave up.
  const written = new Map<string, ResumeRecord | null>();
  // What IndexedDB holds for each id read since the last `getMany` or written since (null: none).
  // Both maps hold about one run's files, not a day's, on a page left open all day.
  const known = new Map<string, ResumeRecord | null>();
  // Ids asked by `get` that were never read, and the read that will answer them.
  let misses: { ids: Set<string>; read: Promise<void> } | null = null;
  // Writes not yet sent to IndexedDB, by record id (null: delete); the last write of an id wins.
  let queued = new Map<string, ResumeRecord | null>();
  let flushing: Promise<void> | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const listeners = new Set<(reason: string) => void>();
  let unavailable: string | null = null;
  let writes = 0;

  const giveUp = (error: unknown) => {
    if (unavailable !== null) return;
    unavailable = reasonOf(error);
    queued.clear();
    log(`Upload resume is unavailable (${unavailable}): an interrupted upload will start over.`);
    listeners.forEach((listener) => listener(unavailable!));
  };

  const opened: Promise<IDBDatabase | null> = (async () => {
    if (!factory) throw new Error('IndexedDB is not available');
    const db = await openDb(factory, dbName);
    // Another tab upgrading the schema, or the browser dropping the connection, ends our use of it.
    db.onversionchange = () => db.close();
    db.onclose = () => giveUp(new Error('the browser closed the resume database'));
    // In the background and in small transactions: a day's 20,000 lapsed records take seconds to
    // delete, and the page's first reads and writes go between the batches instead of after them.
    void pruneAll(db, now, maxRecords).catch(giveUp);
    return db;
  })().catch((error: unknown) => {
    giveUp(error);
    return null;
  });

  /** Reads `ids` from IndexedDB in one transaction into `known` (nothing once it gave up). */
  const read = async (ids: readonly string[]): Promise<void> => {
    const db = await opened;
    if (!db || unavailable !== null) return;
    try {
      const found = await readMany(db, ids);
      ids.forEach((id, i) => known.set(id, found[i] ?? null));
    } catch (error) {
      giveUp(error);
    }
  };

  /** Reads an id nobody read yet, with the other ids asked for before the next microtask. */
  const readMissing = (id: string): Promise<void> => {
    if (!misses) {
      const batch = { ids: new Set<string>(), read: Promise.resolve() };
      batch.read = new Promise<void>((resolve) => queueMicrotask(resolve)).then(() => {
        misses = null;
        return read([...batch.ids]);
      });
      misses = batch;
    }
    misses.ids.add(id);
    return misses.read;
  };

  const answer = (id: string, at: number): ResumeRecord | null => {
    const record = written.has(id) ? written.get(id) : known.get(id);
    return isLive(record, at) ? record : null;
  };

  const flushNow = async (): Promise<void> => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const batch = queued;
    queued = new Map();
    const db = await opened;
    if (!db || unavailable !== null || batch.size === 0) return;
    try {
      await writeBatch(db, batch);
    } catch (error) {
      giveUp(error);
      return;
    }
    // IndexedDB holds them now; a write made since stays the newer one.
    batch.forEach((record, id) => {
      if (written.get(id) !== record) return;
      written.delete(id);
      known.set(id, record);
    });
    const before = writes;
    writes += batch.size;
    if (Math.floor(writes / pruneEvery) > Math.floor(before / pruneEvery)) {
      void pruneAll(db, now, maxRecords).catch(giveUp);
    }
  };

  /** Chains flushes, so that two never run at once and a flush waits for the one before it. */
  const flush = (): Promise<void> => {
    const next = (flushing ?? Promise.resolve()).then(flushNow);
    flushing = next;
    void next.then(() => {
      if (flushing === next) flushing = null;
    });
    return next;
  };

  const enqueue = (id: string, record: ResumeRecord | null) => {
    if (unavailable !== null) return;
    queued.set(id, record);
    // Once per full batch: the flush takes the whole queue when its turn comes.
    if (queued.size === flushAt) void flush();
    else timer ??= setTimeout(() => void flush(), flushEveryMs);
  };

  return {
    getMany: async (scope, keys) => {
      const ids = keys.map((key) => recordId(scope, key));
      // A new run: what earlier runs read is forgotten (a later `get` of it reads it again), unless
      // IndexedDB gave up and it cannot be read again.
      if (unavailable === null) known.clear();
      await read(ids);
      const at = now();
      return ids.map((id) => answer(id, at));
    },
    get: async (scope, key) => {
      const id = recordId(scope, key);
      if (!written.has(id) && !known.has(id)) await readMissing(id);
      return answer(id, now());
    },
    set: (scope, key, input) => {
      const id = recordId(scope, key);
      const record = { ...input, created: now() };
      written.set(id, record);
      enqueue(id, record);
      return Promise.resolve();
    },
    remove: (scope, key) => {
      const id = recordId(scope, key);
      written.set(id, null);
      enqueue(id, null);
      return Promise.resolve();
    },
    flush,
    durable: () => unavailable === null,
    onUnavailable: (listener) => {
      if (unavailable !== null) {
        const reason = unavailable;
        queueMicrotask(() => listener(reason));
      } else {
        listeners.add(listener);
      }
      return () => listeners.delete(listener);
    },
  };
}

let shared: ResumeStore | null = null;

/** The page's one store: IndexedDB when the browser gives it, the old localStorage records deleted. */
export function browserResumeStore(): ResumeStore {
  if (!shared) {
    dropLegacyRecords(guarded(() => (typeof localStorage === 'undefined' ? null : localStorage)));
    const store = idbResumeStore({
      factory: guarded(() => (typeof indexedDB === 'undefined' ? null : indexedDB)),
    });
    // A page being left or reloaded writes what it queued (the browser may still let it finish).
    if (typeof window !== 'undefined') window.addEventListener('pagehide', () => void store.flush());
    shared = store;
  }
  return shared;
}

/** Some browsers throw on merely touching storage (blocked cookies, sandboxed frames). */
function guarded<T>(read: () => T | null): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

function reasonOf(error: unknown): string {
  if (error instanceof DOMException) return error.name;
  return error instanceof Error ? error.message : String(error);
}

function openDb(factory: IDBFactory, name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = factory.open(name, 1);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore(STORE, { keyPath: 'id' });
      store.createIndex(BY_CREATED, 'created');
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB refused to open'));
  });
}

/**
 * Runs `work` in one transaction and resolves with what its returned reader gives once the
 * transaction committed; rejects with the transaction's error (QuotaExceededError, …) or a throw.
 */
function transact<T>(
  db: IDBDatabase,
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => () => T,
): Promise<T> {
  return new Promise((resolve, reject) => {
    try {
      // Relaxed: losing the last record to a power cut only costs that file's resume.
      const tx = db.transaction(STORE, mode, { durability: 'relaxed' });
      const result = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(result());
      tx.onabort = () => reject(tx.error ?? new DOMException('The transaction was aborted', 'AbortError'));
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}

/** Puts and deletes `batch` in one transaction. */
function writeBatch(db: IDBDatabase, batch: ReadonlyMap<string, ResumeRecord | null>): Promise<void> {
  return transact(db, 'readwrite', (store) => {
    batch.forEach((record, id) => {
      if (record) store.put({ ...record, id } satisfies StoredRecord);
      else store.delete(id);
    });
    return () => undefined;
  });
}

function readMany(db: IDBDatabase, ids: readonly string[]): Promise<(ResumeRecord | undefined)[]> {
  return transact(db, 'readonly', (store) => {
    const found = ids.map((): ResumeRecord | undefined => undefined);
    ids.forEach((id, i) => {
      const request = store.get(id);
      request.onsuccess = () => {
        const stored = request.result as StoredRecord | undefined;
        if (!stored) return;
        const { id: _id, ...record } = stored;
        found[i] = record;
      };
    });
    return () => found;
  });
}

/** Records deleted per prune transaction. */
const PRUNE_BATCH = 500;

/** Prunes batch after batch until a batch finds less than a full batch to delete. */
async function pruneAll(db: IDBDatabase, now: () => number, max: number): Promise<number> {
  let removed = 0;
  for (;;) {
    const batch = await prune(db, now(), max, PRUNE_BATCH);
    removed += batch;
    if (batch < PRUNE_BATCH) return removed;
  }
}

/**
 * Deletes up to `limit` records that lapsed or are the oldest beyond `max`, walking the
 * creation-time index from the oldest: it stops at the first record that is neither.
 */
function prune(db: IDBDatabase, now: number, max: number, limit: number): Promise<number> {
  return transact(db, 'readwrite', (store) => {
    let removed = 0;
    const counted = store.count();
    counted.onsuccess = () => {
      let excess = counted.result - max;
      const walk = store.index(BY_CREATED).openCursor();
      walk.onsuccess = () => {
        const cursor = walk.result;
        if (!cursor || removed >= limit) return;
        const lapsed = now - (cursor.value as StoredRecord).created >= RESUME_TTL_MS;
        if (!lapsed && excess <= 0) return;
        cursor.delete();
        excess--;
        removed++;
        cursor.continue();
      };
    };
    return () => removed;
  });
}
