import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import {
  RECORD_HEADER,
  RECORD_MAGIC,
  RECORD_MAX_BYTES,
  SEAL_AFTER_MS,
  SEGMENT_HEADER,
  SEGMENT_MAGIC,
  SEGMENT_MAX_BYTES,
  segmentFiles,
  syncFileSystem,
} from './intake-journal.js';

/**
 * Creates-and-fsyncs small files on worker threads, one message each way per file. Done with
 * fs/promises, a durable new file is about eight thread-pool round trips (mkdir, open, write,
 * fdatasync, close, open the directory, fsync, close), and on a busy machine each costs a wake-up
 * of a pool thread and one of the main thread; here the worker runs the same system calls back to
 * back. Several workers let concurrent associations fsync in parallel (ext4 merges their journal
 * commits), and the main thread never blocks on the disk.
 *
 * The same threads hash large received datasets while they arrive (StreamingDigest): on the main
 * thread SHA-256 was the larger part of receiving a CT image, and the answer waited for it.
 *
 * Where a file's own sync makes its new name durable (ext4, XFS, Btrfs: new-name-durability.ts), the
 * directory fsyncs are skipped: each one is a disk cache flush of its own.
 *
 * The worker is plain JavaScript evaluated from a string, so it runs unchanged under tsx, vitest
 * and the compiled server.
 */
/**
 * The intake journal of one thread (intake-journal.ts has the layout and the why), as JavaScript
 * source: the writer threads run it, and so does the main thread for the small files it writes
 * itself (DurableWriter.write). `createJournal(journal, answer, sealed)` answers an object whose
 * `append(key, file, bytes, id)` appends a record and calls `answer(id, error?)` once it is synced
 * (false when the record is larger than the journal takes: nothing written, nobody answered).
 */
const JOURNAL_SOURCE = `
function createJournal(journal, answer, reportSealed) {
const fs = require('node:fs');
const path = require('node:path');
const ZEROS = Buffer.alloc(1 << 20);
/** Space zero-filled ahead of the records at a time: the one sync that grows the file pays for it. */
const GROW = 8 << 20;
let active;
const sealed = new Map();
const spare = [];
let segments = 0;
let sealTimer;
function openSegment() {
  let segment = spare.shift();
  if (!segment) {
    fs.mkdirSync(journal.dir, { recursive: true });
    const file = path.join(journal.dir, journal.thread + '-' + segments++ + '.seg');
    segment = { file, fd: fs.openSync(file, 'w+'), generation: 0, zeroedTo: 0 };
  }
  segment.generation = (segment.generation + 1) >>> 0;
  segment.offset = journal.segmentHeader;
  segment.files = [];
  const header = Buffer.alloc(journal.segmentHeader);
  header.writeUInt32LE(journal.segmentMagic, 0);
  header.writeUInt32LE(segment.generation, 4);
  fs.writeSync(segment.fd, header, 0, header.length, 0);
  segment.zeroedTo = Math.max(segment.zeroedTo, header.length);
  active = segment;
}
// Records of the active segment written but not yet synced, by the id each answer goes to. One
// fdatasync answers every record appended before it began (group commit): it runs on the thread
// pool, starting as soon as a record is appended, so this thread creates the record's file while
// the disk syncs; records that arrive meanwhile (other associations) are appended and wait for the next.
let unsynced = [];
let syncing = false;
/** Ids already answered with a failure (their file's create failed after the record was written). */
const abandoned = new Set();
function answerSynced(waiting, error) {
  for (const id of waiting) {
    if (abandoned.delete(id)) continue;
    answer(id, error);
  }
}
function flush() {
  if (syncing || !unsynced.length) return;
  const waiting = unsynced;
  unsynced = [];
  syncing = true;
  fs.fdatasync(active.fd, (error) => {
    syncing = false;
    answerSynced(waiting, error);
    if (closing) closing();
    else if (unsynced.length) flush();
  });
}
/** Before a seal: the active segment's records synced now, so the sealed segment holds no waiter. */
function flushNow() {
  if (!unsynced.length) return;
  const waiting = unsynced;
  unsynced = [];
  let failed;
  try {
    fs.fdatasyncSync(active.fd);
  } catch (error) {
    failed = error;
  }
  answerSynced(waiting, failed);
}
function seal() {
  flushNow();
  if (!active || active.files.length === 0) return;
  sealed.set(active.file, active);
  reportSealed(active.file, active.files);
  active = undefined;
}
function freeSegment(file) {
  const segment = sealed.get(file);
  if (!segment) return;
  sealed.delete(file);
  spare.push(segment);
}
function append(key, file, bytes, id) {
  const name = Buffer.from(key, 'utf8');
  const need = journal.recordHeader + name.length + bytes.length;
  if (need > journal.maxRecordBytes) return false;
  if (active && active.offset + need > journal.maxBytes) seal();
  if (!active) openSegment();
  const end = active.offset + need;
  if (end > active.zeroedTo) {
    // Overwriting allocated space syncs the data alone; growing the file syncs its metadata too.
    const target = Math.min(journal.maxBytes, Math.max(end, active.zeroedTo + GROW));
    for (let at = active.zeroedTo; at < target; ) {
      at += fs.writeSync(active.fd, ZEROS, 0, Math.min(ZEROS.length, target - at), at);
    }
    active.zeroedTo = target;
  }
  const head = Buffer.alloc(journal.recordHeader + name.length);
  head.writeUInt32LE(journal.recordMagic, 0);
  head.writeUInt32LE(active.generation, 4);
  head.writeUInt32LE(bytes.length, 8);
  head.writeUInt32LE(name.length, 12);
  name.copy(head, journal.recordHeader);
  fs.writeSync(active.fd, head, 0, head.length, active.offset);
  for (let done = 0; done < bytes.length; ) {
    done += fs.writeSync(active.fd, bytes, done, bytes.length - done, active.offset + head.length + done);
  }
  active.offset = end;
  active.files.push(file);
  unsynced.push(id);
  flush();
  // Sealed once writes rest, so a quiet store's files are checkpointed soon after arriving. The
  // timer does not hold a process open (a start replays what a stop left unsealed).
  clearTimeout(sealTimer);
  sealTimer = setTimeout(seal, journal.sealAfterMs);
  sealTimer.unref();
  return true;
}
/** A record whose file could not be created: its failure is answered already, not again once synced. */
function abandon(id) {
  abandoned.add(id);
}
/**
 * The segments' files closed once the sync under way is over and the records after it are synced
 * (a main-thread journal at the writer's close); then done().
 */
let closing;
function close(done) {
  clearTimeout(sealTimer);
  closing = () => {
    closing = undefined;
    flushNow();
    for (const segment of [active, ...sealed.values(), ...spare]) if (segment) fs.closeSync(segment.fd);
    active = undefined;
    sealed.clear();
    spare.length = 0;
    done();
  };
  if (!syncing) closing();
}
return { append, abandon, freeSegment, close };
}
`;

/**
 * Creates `file` (exclusive) with `bytes` once its journal record is appended; the record's sync is
 * under way meanwhile. Throws what the create threw (the record stays: a replay writes the file
 * back; unreferenced, the collector removes it). JavaScript source too, for the same two users.
 */
const CREATE_SOURCE = `
function createJournaled(file, bytes, knownDirectory) {
  const fs = require('node:fs');
  const path = require('node:path');
  if (!knownDirectory) fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, 'wx');
  try {
    for (let offset = 0; offset < bytes.length; ) offset += fs.writeSync(fd, bytes, offset);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
    throw error;
  }
  fs.closeSync(fd);
}
`;

const WORKER_SOURCE = `
const fs = require('node:fs');
const path = require('node:path');
const { createHash } = require('node:crypto');
const { parentPort, workerData } = require('node:worker_threads');
const { syncDirectories } = workerData;
${JOURNAL_SOURCE}
${CREATE_SOURCE}
const journal = workerData.journal && createJournal(
  workerData.journal,
  (id, error) => parentPort.postMessage(error ? failure(id, error) : { id }),
  (segment, files) => parentPort.postMessage({ type: 'sealed', segment, files }),
);
function syncDirectory(dir) {
  const fd = fs.openSync(dir, 'r');
  try { fs.fsyncSync(fd); } finally { fs.closeSync(fd); }
}
// Digests in progress: job id → { hash, hashed: bytes of the memory hashed so far }.
const digests = new Map();
function hashUpTo(job, memory, upTo) {
  let digest = digests.get(job);
  if (!digest) digests.set(job, (digest = { hash: createHash('sha256'), hashed: 0 }));
  if (upTo > digest.hashed) digest.hash.update(new Uint8Array(memory, digest.hashed, upTo - digest.hashed));
  digest.hashed = Math.max(digest.hashed, upTo);
  return digest;
}
parentPort.on('message', (message) => {
  if (message.type === 'hash') return void hashUpTo(message.job, message.memory, message.upTo);
  if (message.type === 'drop') return void digests.delete(message.job);
  if (message.type === 'free') return void journal.freeSegment(message.segment);
  if (message.type === 'digest') {
    const digest = hashUpTo(message.job, message.memory, message.upTo);
    digests.delete(message.job);
    const sha256 = digest.hash.digest('hex');
    parentPort.postMessage({ id: message.id, value: sha256 });
    const then = message.thenWrite;
    // The same path as blobKey(sha256, suffix) (blob-store.ts) under the blob root.
    if (then) write({ id: then.id, root: then.root, knownDirectory: false,
      file: path.join(then.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256 + then.suffix),
      bytes: new Uint8Array(message.memory, 0, message.upTo) });
    return;
  }
  write(message);
});
function failure(id, error) {
  return { id, code: error.code || 'EIO', message: String(error.message || error) };
}
function write({ id, file, root, bytes, knownDirectory }) {
  // The intake journal's record makes the bytes durable (intake-journal.ts): appended first, its
  // sync under way on the thread pool while the file is created here, answered once both are done.
  let journaled = false;
  try {
    journaled = journal !== undefined && journal.append(path.relative(root, file), file, bytes, id);
  } catch (error) {
    parentPort.postMessage(failure(id, error));
    return;
  }
  if (journaled) {
    try {
      createJournaled(file, bytes, knownDirectory);
    } catch (error) {
      journal.abandon(id);
      parentPort.postMessage(failure(id, error));
    }
    return;
  }
  try {
    const dir = path.dirname(file);
    // mkdir answers the topmost directory it made: it, each one below it, and its parent changed.
    const created = knownDirectory ? undefined : fs.mkdirSync(dir, { recursive: true });
    const fd = fs.openSync(file, 'wx');
    try {
      let offset = 0;
      while (offset < bytes.length) offset += fs.writeSync(fd, bytes, offset);
      // Without a journal, or for a record larger than the journal takes, the file's own sync,
      // which on ext4 also carries the new directory entries made above in its journal commit.
      fs.fdatasyncSync(fd);
    } catch (error) {
      fs.closeSync(fd);
      fs.rmSync(file, { force: true });
      throw error;
    }
    fs.closeSync(fd);
    if (syncDirectories) syncDirectory(dir);
    if (created && syncDirectories) {
      const top = path.dirname(created);
      for (let changed = path.dirname(dir); ; changed = path.dirname(changed)) {
        syncDirectory(changed);
        if (changed === top || changed.length <= top.length || changed.length <= root.length) break;
      }
    }
    parentPort.postMessage({ id });
  } catch (error) {
    parentPort.postMessage(failure(id, error));
  }
}
`;

export class DurableWriteError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface Pending {
  resolve: (value: string | undefined) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
  /** Digests begun on this thread and not yet finished or dropped. */
  digests: number;
}

/** JOURNAL_SOURCE's journal, as the main thread runs it. */
interface InlineJournal {
  append(key: string, file: string, bytes: Uint8Array, id: number): boolean;
  abandon(id: number): void;
  freeSegment(file: string): void;
  close(done: () => void): void;
}

interface InlineCode {
  createJournal(
    journal: object,
    answer: (id: number, error?: NodeJS.ErrnoException) => void,
    sealed: (segment: string, files: string[]) => void,
  ): InlineJournal;
  createJournaled(file: string, bytes: Uint8Array, knownDirectory: boolean): void;
}

/** JOURNAL_SOURCE and CREATE_SOURCE made into functions of this thread, once. */
let inlineCode: InlineCode | undefined;
function loadInlineCode(): InlineCode {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- this file's own constant source, shared with the writer threads
  const make = new Function(
    'require',
    `${JOURNAL_SOURCE}\n${CREATE_SOURCE}\nreturn { createJournal, createJournaled };`,
  ) as (require: NodeJS.Require) => InlineCode;
  return (inlineCode ??= make(createRequire(import.meta.url)));
}

/**
 * The largest file the main thread writes itself, into its own intake journal. A small received
 * instance (28 KB) cost the main thread about as much in handing it to a writer thread and taking
 * its answer back (postMessage and the wake-ups: four thread hand-overs with the thread pool's
 * sync) as the record's write and the file's create cost it here; its sync still runs on the
 * thread pool. Larger ones (CT images, hashed on a writer thread as they arrive) stay there, so
 * the main thread never copies much.
 */
export const INLINE_MAX_BYTES = 64 * 1024;

/**
 * Posts a message awaiting one answer, or two when `second` adds the id of a second answer to it.
 */
type Requester = (
  message: object,
  second?: (id: number) => object,
) => [Promise<string | undefined>, Promise<string | undefined> | undefined];

/**
 * The SHA-256 of a dataset computed on a writer thread while the dataset lands in shared memory,
 * so the receiving thread only copies bytes. Bytes handed over must not change until the digest is
 * finished or dropped (the memory is shared, and the thread reads it later).
 */
export class StreamingDigest {
  private open = true;
  constructor(
    private readonly post: (message: object) => void,
    private readonly request: Requester,
    private readonly closed: () => void,
    private readonly job: number,
  ) {}

  /** Bytes [0, upTo) of `memory` are final: hash them (as the thread gets to it). */
  advance(memory: SharedArrayBuffer, upTo: number): void {
    if (this.open) this.post({ type: 'hash', job: this.job, memory, upTo });
  }

  /** Bytes [0, upTo) are the whole dataset: its SHA-256 as hex. */
  finish(memory: SharedArrayBuffer, upTo: number): Promise<string> {
    return this.finishThenWrite(memory, upTo).sha256;
  }

  /**
   * Bytes [0, upTo) are the whole dataset: its SHA-256, and with `write`, the thread goes on at once
   * to create the file `write.root/ab/cd/<sha256><suffix>` (blobKey in blob-store.ts) with those bytes,
   * as DurableWriter.write does (`written` settles like its promise).
   */
  finishThenWrite(
    memory: SharedArrayBuffer,
    upTo: number,
    write?: { root: string; suffix: string },
  ): { sha256: Promise<string>; written?: Promise<void> } {
    if (!this.open) throw new Error('digest already finished or dropped');
    this.open = false;
    const [digested, written] = this.request(
      { type: 'digest', job: this.job, memory, upTo },
      write ? (id) => ({ thenWrite: { ...write, id } }) : undefined,
    );
    const sha256 = digested.then((value) => value!);
    void (written ?? digested).then(this.closed, this.closed);
    return { sha256, written: written?.then(() => undefined) };
  }

  /** The dataset will not be finished (the association ended). */
  drop(): void {
    if (!this.open) return;
    this.open = false;
    this.post({ type: 'drop', job: this.job });
    this.closed();
  }
}

/** Journal segment names are `<thread>-<n>.seg`, the thread numbered across the process. */
let threadSerial = 0;

export class DurableWriter {
  private readonly slots: Slot[] = [];
  private nextId = 1;
  /** Sealed journal segments waiting for a checkpoint (and how to hand each back), and the one under way. */
  private sealed: { free: () => void; segment: string; files: string[] }[] = [];
  private checkpointing: Promise<void> | undefined;
  private readonly threads: number[] = [];
  /** The main thread's own intake journal (small files), made on first use; and its waiters. */
  private inline: InlineJournal | undefined;
  private readonly inlinePending = new Map<number, Pending>();

  constructor(
    private readonly root: string,
    /** false where the file's own sync makes its name durable (fileSyncPersistsItsName). */
    private readonly syncDirectories = true,
    private readonly size = Math.min(4, Math.max(2, os.cpus().length)),
    /** The intake journal's directory (intake-journal.ts); without one each file is synced itself. */
    private readonly journalDir?: string,
  ) {}

  /**
   * Creates `file` (which must not exist: EEXIST otherwise) with `bytes`, fdatasyncs it and, unless
   * that already made its name durable, fsyncs its directory (creating the directory first, and
   * fsyncing the parents that gained an entry).
   */
  async write(file: string, bytes: Uint8Array, knownDirectory: boolean): Promise<void> {
    const inline = this.writeInline(file, bytes, knownDirectory);
    if (inline) return inline;
    await this.request(this.leastBusy(), { type: 'write', file, root: this.root, bytes, knownDirectory })[0];
  }

  /**
   * A small file with a journal: its record appended to the main thread's journal (its sync starts
   * on the thread pool at once, shared with the records that arrive while it runs) and the file
   * created here meanwhile; settles once the record is synced. Undefined for a file the writer
   * threads write (no journal, or larger than INLINE_MAX_BYTES).
   */
  private writeInline(file: string, bytes: Uint8Array, knownDirectory: boolean): Promise<void> | undefined {
    if (!this.journalDir || bytes.byteLength > INLINE_MAX_BYTES) return undefined;
    const journal = (this.inline ??= this.openInline(this.journalDir));
    const id = this.nextId++;
    const synced = new Promise<void>((resolve, reject) =>
      this.inlinePending.set(id, { resolve: () => resolve(), reject }),
    );
    try {
      if (!journal.append(path.relative(this.root, file), file, bytes, id)) {
        this.inlinePending.delete(id);
        return undefined;
      }
    } catch (error) {
      this.inlinePending.delete(id);
      return Promise.reject(asWriteError(error));
    }
    try {
      loadInlineCode().createJournaled(file, bytes, knownDirectory);
    } catch (error) {
      journal.abandon(id);
      this.inlinePending.delete(id);
      return Promise.reject(asWriteError(error));
    }
    return synced;
  }

  private openInline(dir: string): InlineJournal {
    const thread = ++threadSerial;
    this.threads.push(thread);
    return loadInlineCode().createJournal(
      this.journalSettings(dir, thread),
      (id, error) => {
        const pending = this.inlinePending.get(id);
        if (!pending) return;
        this.inlinePending.delete(id);
        if (error) pending.reject(asWriteError(error));
        else pending.resolve(undefined);
      },
      (segment, files) => {
        const journal = this.inline;
        this.sealed.push({ free: () => journal?.freeSegment(segment), segment, files });
        this.checkpoint();
      },
    );
  }

  /** Begins a SHA-256 on the least busy thread, which then counts as busy until it is finished. */
  startDigest(): StreamingDigest {
    const slot = this.leastBusy();
    slot.digests += 1;
    return new StreamingDigest(
      (message) => slot.worker.postMessage(message),
      (message, second) => this.request(slot, message, second),
      () => (slot.digests -= 1),
      this.nextId++,
    );
  }

  private request(
    slot: Slot,
    message: object,
    second?: (id: number) => object,
  ): [Promise<string | undefined>, Promise<string | undefined> | undefined] {
    if (!this.slots.includes(slot)) {
      // The thread crashed or was stopped after a digest began on it: nothing would answer.
      const gone = () => Promise.reject(new DurableWriteError('EIO', 'writer thread gone'));
      return [gone(), second ? gone() : undefined];
    }
    // A writer holds the process open only while it has work.
    if (slot.pending.size === 0) slot.worker.ref();
    const answer = () => {
      const id = this.nextId++;
      const promise = new Promise<string | undefined>((resolve, reject) =>
        slot.pending.set(id, { resolve, reject }),
      );
      return { id, promise };
    };
    const first = answer();
    const then = second ? answer() : undefined;
    slot.worker.postMessage({ ...message, ...(then ? second!(then.id) : {}), id: first.id });
    return [first.promise, then?.promise];
  }

  async close(): Promise<void> {
    // Its records synced now (those waiting are answered), its segment files closed.
    const inline = this.inline;
    this.inline = undefined;
    if (inline) await new Promise<void>((resolve) => inline.close(resolve));
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
    for (const slot of slots) this.fail(slot, new Error('durable writer closed'));
    if (!this.journalDir) return;
    // Every file the journal covers made durable, its segments are no longer needed.
    await this.checkpointing;
    const threads = new Set(this.threads.splice(0).map(String));
    const segments = segmentFiles(this.journalDir).filter((file) =>
      threads.has(path.basename(file).split('-')[0]!),
    );
    if (!segments.length) return;
    await syncFileSystem(
      this.root,
      this.sealed.flatMap((entry) => entry.files),
    );
    this.sealed = [];
    for (const segment of segments) fs.rmSync(segment, { force: true });
  }

  /**
   * One syncfs for every segment sealed so far, then each is handed back to its thread for reuse.
   * A failed sync leaves them queued for the next seal (they stay replayable meanwhile).
   */
  private checkpoint(): void {
    if (this.checkpointing || !this.sealed.length) return;
    const batch = this.sealed.splice(0);
    const files = batch.flatMap((entry) => entry.files);
    // A thread creates a record's file before it handles anything else, so before it seals the
    // record's segment: every file a sealed segment covers is written by the time it is reported.
    this.checkpointing = syncFileSystem(this.root, files).then(
      () => {
        for (const { free } of batch) free();
        this.checkpointing = undefined;
        this.checkpoint();
      },
      () => {
        this.sealed.unshift(...batch);
        this.checkpointing = undefined;
      },
    );
  }

  private leastBusy(): Slot {
    const load = (slot: Slot) => slot.pending.size + slot.digests;
    const idle = this.slots.find((slot) => load(slot) === 0);
    if (idle) return idle;
    if (this.slots.length < this.size) return this.spawn();
    return this.slots.reduce((a, b) => (load(b) < load(a) ? b : a));
  }

  /** What a journal of thread `thread` needs to know (JOURNAL_SOURCE). */
  private journalSettings(dir: string, thread: number) {
    return {
      dir,
      thread,
      maxBytes: SEGMENT_MAX_BYTES,
      maxRecordBytes: RECORD_MAX_BYTES,
      sealAfterMs: SEAL_AFTER_MS,
      segmentHeader: SEGMENT_HEADER,
      segmentMagic: SEGMENT_MAGIC,
      recordHeader: RECORD_HEADER,
      recordMagic: RECORD_MAGIC,
    };
  }

  private spawn(): Slot {
    const thread = ++threadSerial;
    const journal = this.journalDir && this.journalSettings(this.journalDir, thread);
    if (journal) this.threads.push(thread);
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { syncDirectories: this.syncDirectories, journal },
    });
    worker.unref();
    const slot: Slot = { worker, pending: new Map(), digests: 0 };
    type Answer = { id: number; value?: string; code?: string; message?: string };
    type Sealed = { type: 'sealed'; segment: string; files: string[] };
    worker.on('message', (answer: Answer | Sealed) => {
      if ('type' in answer) {
        const free = () => {
          if (this.slots.includes(slot)) slot.worker.postMessage({ type: 'free', segment: answer.segment });
        };
        this.sealed.push({ free, segment: answer.segment, files: answer.files });
        return this.checkpoint();
      }
      const pending = slot.pending.get(answer.id);
      if (!pending) return;
      slot.pending.delete(answer.id);
      if (slot.pending.size === 0) worker.unref();
      if (answer.code) pending.reject(new DurableWriteError(answer.code, answer.message ?? answer.code));
      else pending.resolve(answer.value);
    });
    worker.on('error', (error) => {
      // A crashed worker fails what it held; the next write spawns a fresh one.
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.slots.splice(index, 1);
      this.fail(slot, error);
    });
    this.slots.push(slot);
    return slot;
  }

  private fail(slot: Slot, error: Error): void {
    for (const pending of slot.pending.values()) pending.reject(error);
    slot.pending.clear();
  }
}

/** A failure of the main thread's own journal or create, as the writer threads answer theirs. */
function asWriteError(error: unknown): DurableWriteError {
  const failure = error as NodeJS.ErrnoException;
  return new DurableWriteError(failure.code ?? 'EIO', String(failure.message ?? error));
}
