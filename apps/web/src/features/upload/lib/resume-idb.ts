import {
  dropLegacyRecords,
  isLive,
  memoryResumeStore,
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
 * Whatever IndexedDB refuses (missing, private mode, quota, a closed connection) the upload goes
 * on: records are then kept in memory for this page only, and `onUnavailable` listeners (the UI's
 * notice) and the console are told once that an interrupted upload will start over.
 */
export const RESUME_DB_NAME = 'imaging-inbox-upload-resume';
const STORE = 'records';
const BY_CREATED = 'created';

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
  log?: (message: string) => void;
}

export function idbResumeStore(options: IdbResumeOptions): ResumeStore {
  const { factory, dbName = RESUME_DB_NAME, now = Date.now, maxRecords = RESUME_MAX_RECORDS } = options;
  const pruneEvery = options.pruneEvery ?? 1000;
  const log = options.log ?? ((message: string) => console.warn(message));
  // Records written after IndexedDB gave up: they last as long as the page.
  const memory = memoryResumeStore(now);
  const listeners = new Set<(reason: string) => void>();
  let unavailable: string | null = null;
  let writes = 0;

  const giveUp = (error: unknown) => {
    if (unavailable !== null) return;
    unavailable = reasonOf(error);
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

  const getMany = async (scope: string, keys: readonly string[]) => {
    const recent = await memory.getMany(scope, keys);
    const db = await opened;
    if (!db) return recent;
    try {
      const stored = await readMany(
        db,
        keys.map((key) => recordId(scope, key)),
      );
      const at = now();
      return keys.map((_, i) => recent[i] ?? publicRecord(stored[i], at));
    } catch (error) {
      giveUp(error);
      return recent;
    }
  };

  return {
    getMany,
    get: async (scope, key) => (await getMany(scope, [key]))[0] ?? null,
    set: async (scope, key, record) => {
      const db = await opened;
      if (db && unavailable === null) {
        try {
          await put(db, { ...record, id: recordId(scope, key), created: now() });
          if (++writes % pruneEvery === 0) void pruneAll(db, now, maxRecords).catch(giveUp);
          return;
        } catch (error) {
          giveUp(error);
        }
      }
      await memory.set(scope, key, record);
    },
    remove: async (scope, key) => {
      await memory.remove(scope, key);
      const db = await opened;
      if (!db) return;
      await transact(db, 'readwrite', (store) => {
        store.delete(recordId(scope, key));
        return () => undefined;
      }).catch(giveUp);
    },
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
    shared = idbResumeStore({
      factory: guarded(() => (typeof indexedDB === 'undefined' ? null : indexedDB)),
    });
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

function publicRecord(stored: StoredRecord | undefined, at: number): ResumeRecord | null {
  if (!isLive(stored, at)) return null;
  const { id: _id, ...record } = stored;
  return record;
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

function put(db: IDBDatabase, record: StoredRecord): Promise<void> {
  return transact(db, 'readwrite', (store) => {
    store.put(record);
    return () => undefined;
  });
}

function readMany(db: IDBDatabase, ids: readonly string[]): Promise<(StoredRecord | undefined)[]> {
  return transact(db, 'readonly', (store) => {
    const found = ids.map((): StoredRecord | undefined => undefined);
    ids.forEach((id, i) => {
      const request = store.get(id);
      request.onsuccess = () => (found[i] = request.result as StoredRecord | undefined);
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
