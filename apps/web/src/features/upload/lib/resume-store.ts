/**
 * What survives a reload of an upload, per destination and file, in localStorage: the upload
 * session a large file was being sent to, or that the file was stored. One key per file (not one
 * big JSON value) so marking a file costs the same with 2,000 files as with 2.
 */
export interface ResumeRecord {
  /** The upload session id of a file sent in chunks. */
  session?: string;
  /** Set once the server answered the file (stored or duplicate). */
  done?: 1;
  /** When the record was last written (ms). */
  at: number;
}

const PREFIX = 'imaging-inbox.upload.v1:';
/** As long as the server keeps an untouched upload session. */
export const RESUME_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * A file's identity across page loads: where it sits in the picked folder, its size and date, and
 * its SOP Instance UID when the header was read. A File object cannot be kept; these can.
 */
export function fileKey(file: File, sopInstanceUid = ''): string {
  return [file.webkitRelativePath || file.name, file.size, file.lastModified, sopInstanceUid].join('|');
}

export interface ResumeStore {
  get: (scope: string, key: string) => ResumeRecord | null;
  set: (scope: string, key: string, record: Omit<ResumeRecord, 'at'>) => void;
  remove: (scope: string, key: string) => void;
  /** Drops records older than the server keeps sessions. */
  prune: (now?: number) => void;
}

export function createResumeStore(storage: Storage | null = safeLocalStorage()): ResumeStore {
  const name = (scope: string, key: string) => `${PREFIX}${scope}:${key}`;
  return {
    get: (scope, key) => {
      const raw = storage?.getItem(name(scope, key));
      if (!raw) return null;
      try {
        const record = JSON.parse(raw) as ResumeRecord;
        return Date.now() - record.at < RESUME_TTL_MS ? record : null;
      } catch {
        return null;
      }
    },
    set: (scope, key, record) => {
      try {
        storage?.setItem(name(scope, key), JSON.stringify({ ...record, at: Date.now() }));
      } catch {
        // A full storage only costs the resume: the upload itself goes on.
      }
    },
    remove: (scope, key) => storage?.removeItem(name(scope, key)),
    prune: (now = Date.now()) => {
      if (!storage) return;
      const stale: string[] = [];
      for (let i = 0; i < storage.length; i++) {
        const k = storage.key(i);
        if (!k?.startsWith(PREFIX)) continue;
        try {
          if (now - (JSON.parse(storage.getItem(k) ?? '{}') as ResumeRecord).at >= RESUME_TTL_MS)
            stale.push(k);
        } catch {
          stale.push(k);
        }
      }
      stale.forEach((k) => storage.removeItem(k));
    },
  };
}

let shared: ResumeStore | null = null;

/** The page's one store over localStorage, pruned of stale records on first use. */
export function browserResumeStore(): ResumeStore {
  if (!shared) {
    shared = createResumeStore();
    shared.prune();
  }
  return shared;
}

function safeLocalStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
