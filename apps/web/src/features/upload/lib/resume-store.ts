/**
 * What survives a reload of an upload, per destination and file: the upload session a large file
 * was being sent to, or that the file was stored. The browser store keeps them in IndexedDB
 * (`resume-idb.ts`); this module holds the shape, the in-memory store and the fallback rules.
 */
export interface ResumeRecord {
  /** The upload session id of a file sent in chunks. */
  session?: string;
  /** Set once the server answered the file (stored or duplicate). */
  done?: 1;
  /** When the record was written (ms): it lapses RESUME_TTL_MS later. */
  created: number;
}

export type ResumeRecordInput = Omit<ResumeRecord, 'created'>;

/** As long as the server keeps an untouched upload session. */
export const RESUME_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Records kept at most (oldest dropped first): a busy workstation sends some 20,000 files a day,
 * so this holds more than a day of them while bounding what the origin's storage holds.
 */
export const RESUME_MAX_RECORDS = 50_000;

export interface ResumeStore {
  get: (scope: string, key: string) => Promise<ResumeRecord | null>;
  /** The records of many files of one destination, in the order of `keys` (one read). */
  getMany: (scope: string, keys: readonly string[]) => Promise<(ResumeRecord | null)[]>;
  /**
   * Never rejects: a record that cannot be kept only costs the resume, not the upload. Resolves
   * once this page's reads see the record; it reaches the browser's storage with the other writes
   * of the same moment (`flush` waits for that).
   */
  set: (scope: string, key: string, record: ResumeRecordInput) => Promise<void>;
  remove: (scope: string, key: string) => Promise<void>;
  /** Resolves once every write made so far is in the browser's storage (or could not be). */
  flush: () => Promise<void>;
  /** Whether records outlive this page (false once IndexedDB is missing, refused or full). */
  durable: () => boolean;
  /** Told once, with the reason, when records stop outliving the page; returns the unsubscribe. */
  onUnavailable: (listener: (reason: string) => void) => () => void;
}

export const recordId = (scope: string, key: string) => `${scope}:${key}`;

export const isLive = (record: ResumeRecord | null | undefined, now: number): record is ResumeRecord =>
  !!record && now - record.created < RESUME_TTL_MS;

/** Records in a Map: the store of a page whose browser keeps none, and the unit tests' reference. */
export function memoryResumeStore(now: () => number = Date.now): ResumeStore {
  const records = new Map<string, ResumeRecord>();
  const get = (scope: string, key: string) => {
    const record = records.get(recordId(scope, key));
    return isLive(record, now()) ? record : null;
  };
  return {
    get: (scope, key) => Promise.resolve(get(scope, key)),
    getMany: (scope, keys) => Promise.resolve(keys.map((key) => get(scope, key))),
    set: (scope, key, record) => {
      records.set(recordId(scope, key), { ...record, created: now() });
      return Promise.resolve();
    },
    remove: (scope, key) => {
      records.delete(recordId(scope, key));
      return Promise.resolve();
    },
    flush: () => Promise.resolve(),
    durable: () => false,
    onUnavailable: () => () => undefined,
  };
}

/** Where the records lived before IndexedDB, one localStorage key each. */
export const LEGACY_PREFIX = 'imaging-inbox.upload.v1:';

/**
 * Deletes the records of the old localStorage store. They are not carried over: the next load
 * starts those files over (at most a day of resumes), and the quota they filled is given back.
 */
export function dropLegacyRecords(storage: Storage | null): number {
  if (!storage) return 0;
  const legacy: string[] = [];
  try {
    for (let i = 0; i < storage.length; i++) {
      const k = storage.key(i);
      if (k?.startsWith(LEGACY_PREFIX)) legacy.push(k);
    }
    legacy.forEach((k) => storage.removeItem(k));
  } catch {
    // A storage that cannot be listed holds nothing we can clean.
  }
  return legacy.length;
}
