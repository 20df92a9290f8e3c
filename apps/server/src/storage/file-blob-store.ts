import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { BlobDirectoriesAhead } from './blob-directories.js';
import type { BlobHandle, BlobStore, ByteRange, TempFile } from './blob-store.js';
import { blobKey } from './blob-store.js';
import { DurableWriter, DurableWriteError } from './durable-writer.js';
import type { StreamingDigest } from './durable-writer.js';
import type { JournalReplay } from './intake-journal.js';
import { replayJournal } from './intake-journal.js';
import { fileSyncPersistsItsName } from './new-name-durability.js';
import { Staging } from './staging.js';

/** Bytes per positioned read when streaming a blob (one read for a typical ~0.5 MB DICOM file). */
const READ_CHUNK = 1024 * 1024;

/**
 * The blob store on a file system: blobs under `blobDir` (BLOB_DIR, shared by every process on a
 * shared file system), content-addressed by SHA-256; bodies are staged under `DATA_DIR/tmp`, which
 * is this process's own. Writes go to a temp file first, are fsynced, then renamed into place, so a
 * crash never leaves a half file under a key.
 */
export class FileBlobStore implements BlobStore {
  private readonly root: string;
  private readonly staging: Staging;
  private readonly writer: DurableWriter;
  /** false where a new file's own sync makes its name durable (new-name-durability.ts). */
  readonly syncsDirectories: boolean;

  /** Makes a young store's directories ahead of its files (blob-directories.ts); when asked. */
  private readonly directoriesAhead: BlobDirectoriesAhead | undefined;

  constructor(
    dataDir: string,
    blobDir = path.join(dataDir, 'blobs'),
    options: { directoriesAhead?: boolean } = {},
  ) {
    this.root = blobDir;
    this.staging = new Staging(path.join(dataDir, 'tmp'));
    fs.mkdirSync(this.root, { recursive: true });
    this.syncsDirectories = !fileSyncPersistsItsName(this.root);
    // Before anything stores: files a power cut lost are rebuilt from the journal (intake-journal.ts).
    const journal = path.join(dataDir, 'journal');
    this.journalReplay = replayJournal(journal, this.root);
    this.writer = new DurableWriter(this.root, this.syncsDirectories, undefined, journal);
    // Where a directory needs fsyncs of its own, the writer keeps making (and syncing) it.
    this.directoriesAhead =
      options.directoriesAhead && !this.syncsDirectories ? new BlobDirectoriesAhead(this.root) : undefined;
  }

  /** Settles once a young store's directories are all made (at once when not asked for). */
  directoriesMade(): Promise<unknown> {
    return this.directoriesAhead?.done ?? Promise.resolve();
  }

  /** What the start found in the intake journal: records of the last run, files written again. */
  readonly journalReplay: JournalReplay;

  private pathOf(key: string): string {
    if (key.includes('..')) throw new Error('bad blob key');
    return path.join(this.root, key);
  }

  /** Streams a body to a temp file, hashing as it goes; refuses more than maxBytes. */
  writeTemp(source: Readable | Uint8Array, maxBytes?: number): Promise<TempFile> {
    return this.staging.write(source, maxBytes);
  }

  /** Moves a temp file under its content key. Same content already stored: the temp is dropped. */
  async commit(temp: TempFile, options: { replace?: boolean; suffix?: string } = {}): Promise<string> {
    const key = blobKey(temp.sha256, options.suffix);
    const target = this.pathOf(key);
    if (!options.replace && (await this.refresh(target))) {
      await fsp.rm(temp.path, { force: true });
      return key;
    }
    await this.ensureDirectory(path.dirname(target));
    await this.moveInto(temp.path, target);
    // fsync the directory so the rename itself survives a power cut.
    await syncDirectory(path.dirname(target));
    return key;
  }

  /**
   * Stores bytes whose hash is already known straight under their key: one record in the intake
   * journal, synced, while the file is created (exclusive) and written (DurableWriter,
   * intake-journal.ts): an
   * overwrite of allocated space, where the file's own fdatasync would commit its inode, directory
   * entry and blocks (and temp → fsync → rename → fsync two such commits). The key is not
   * referenced by any index row before this resolves, so a crash mid-write can only leave an
   * unreferenced partial file; an existing file is therefore trusted only after its hash checks out.
   */
  async storeBytes(bytes: Uint8Array, sha256: string): Promise<string> {
    const key = blobKey(sha256);
    const dir = path.dirname(this.pathOf(key));
    return this.settle(this.writer.write(this.pathOf(key), bytes, this.directories.has(dir)), bytes, sha256);
  }

  /**
   * storeBytes for bytes whose digest is still being finished on a writer thread: that thread
   * writes them under their key right after (no hand-back to this thread in between).
   */
  storeDigested(
    digest: StreamingDigest,
    memory: SharedArrayBuffer,
    size: number,
  ): { sha256: Promise<string>; stored: Promise<string> } {
    const { sha256, written } = digest.finishThenWrite(memory, size, { root: this.root, suffix: '.dcm' });
    // Observed by settle once the digest is in; if the digest fails, nothing else would observe it.
    written!.catch(() => undefined);
    const stored = sha256.then((sha) => this.settle(written!, new Uint8Array(memory, 0, size), sha));
    return { sha256, stored };
  }

  /** The key of bytes once `writing` (their create-and-sync under it) is over; see storeBytes. */
  private async settle(writing: Promise<void>, bytes: Uint8Array, sha256: string): Promise<string> {
    const key = blobKey(sha256);
    const target = this.pathOf(key);
    const dir = path.dirname(target);
    try {
      await writing;
      this.directories.add(dir);
      return key;
    } catch (error) {
      if (!(error instanceof DurableWriteError && error.code === 'EEXIST')) throw error;
    }
    this.directories.add(dir);
    if (await this.holds(target, sha256, bytes.byteLength)) {
      await this.refresh(target);
      return key;
    }
    // A leftover of an interrupted write: replace it the careful way.
    return this.commit(await this.writeTemp(bytes), { replace: true });
  }

  /** A SHA-256 computed on a writer thread as a dataset lands in shared memory (storeBytes' key). */
  startDigest(): StreamingDigest {
    return this.writer.startDigest();
  }

  /** Stops the writer threads (tests and shutdown; a later write starts them again). */
  async close(): Promise<void> {
    await this.directoriesAhead?.stop();
    await this.writer.close();
  }

  /** Directories known to exist and be durable; the blob tree is never pruned while we run. */
  private readonly directories = new Set<string>();

  /** mkdir -p for a blob directory, fsyncing each parent whose entries changed. */
  private async ensureDirectory(dir: string): Promise<void> {
    if (this.directories.has(dir)) return;
    const created = await fsp.mkdir(dir, { recursive: true });
    if (created) {
      // mkdir answers the topmost directory it made: it and every directory below it down to `dir`
      // gained an entry, as did the parent of `created`. (Each fsync after the first finds nothing left.)
      const top = path.dirname(created);
      for (let changed = path.dirname(dir); ; changed = path.dirname(changed)) {
        await syncDirectory(changed);
        if (changed === top || changed.length <= top.length) break;
      }
    }
    this.directories.add(dir);
  }

  private async holds(file: string, sha256: string, size: number): Promise<boolean> {
    try {
      const content = await fsp.readFile(file);
      return content.byteLength === size && createHash('sha256').update(content).digest('hex') === sha256;
    } catch {
      return false;
    }
  }

  discard(temp: TempFile): Promise<void> {
    return this.staging.discard(temp);
  }

  clearStaging(): Promise<{ files: number; bytes: number }> {
    return this.staging.clear();
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  read(key: string): Promise<Buffer> {
    return fsp.readFile(this.pathOf(key));
  }

  /**
   * One positioned read per chunk into a fresh buffer (the socket may still hold the previous one):
   * fs.createReadStream costs about twice as much per file in this pattern (stream setup, extra
   * ticks), which halved the archive throughput. A file shorter than the range ends the stream early.
   */
  async *readStream(key: string, range?: ByteRange): AsyncGenerator<Uint8Array> {
    const handle = await fsp.open(this.pathOf(key), 'r');
    try {
      let position = range?.start ?? 0;
      const end = range ? range.end + 1 : (await handle.stat()).size;
      while (position < end) {
        const buffer = Buffer.allocUnsafe(Math.min(READ_CHUNK, end - position));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
        if (bytesRead === 0) return;
        position += bytesRead;
        yield bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
      }
    } finally {
      await handle.close();
    }
  }

  async open(key: string): Promise<BlobHandle> {
    const handle = await fsp.open(this.pathOf(key), 'r');
    const { size } = await handle.stat();
    return {
      size,
      read: async (buffer, offset, length, position) =>
        (await handle.read(buffer, offset, length, position)).bytesRead,
      close: () => handle.close(),
    };
  }

  async stat(key: string): Promise<{ size: number; writtenAt: number } | undefined> {
    const stat = await fsp.stat(this.pathOf(key)).catch(() => undefined);
    return stat?.isFile() ? { size: stat.size, writtenAt: stat.mtimeMs } : undefined;
  }

  async check(): Promise<void> {
    await fsp.access(this.root, fs.constants.W_OK);
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== undefined;
  }

  /**
   * Keys of `.dcm` blobs written at or after `since`, found through the directories changed since
   * (a file created in a directory changes its modification time). Synchronous calls: this runs at
   * start before anything else, and up to 65,536 directory stats cost a fraction of a second this
   * way instead of a thread-pool round trip each. `examined` counts the directories looked into.
   */
  writtenSince(since: number): Promise<{ keys: string[]; examined: number }> {
    const keys: string[] = [];
    let examined = 0;
    for (const top of hexEntries(this.root)) {
      for (const sub of hexEntries(path.join(this.root, top))) {
        const dir = path.join(this.root, top, sub);
        if (fs.statSync(dir).mtimeMs < since) continue;
        examined += 1;
        for (const name of fs.readdirSync(dir)) {
          if (!name.endsWith('.dcm')) continue;
          const stat = fs.statSync(path.join(dir, name), { throwIfNoEntry: false });
          if (!stat?.isFile() || stat.mtimeMs < since) continue;
          keys.push(`${top}/${sub}/${name}`);
        }
      }
    }
    return Promise.resolve({ keys, examined });
  }

  /**
   * Marks a blob found already stored as written now, so the collector's grace period protects it
   * while the write that found it indexes it; false when it is not there.
   */
  private async refresh(file: string): Promise<boolean> {
    const now = new Date();
    try {
      await fsp.utimes(file, now, now);
      return true;
    } catch {
      return false;
    }
  }

  /** rename, or where BLOB_DIR is another file system than DATA_DIR, a synced copy renamed in place. */
  private async moveInto(from: string, target: string): Promise<void> {
    try {
      await fsp.rename(from, target);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    }
    const incoming = `${target}.${randomBytes(6).toString('hex')}.incoming`;
    try {
      await fsp.copyFile(from, incoming);
      const handle = await fsp.open(incoming, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fsp.rename(incoming, target);
    } finally {
      await fsp.rm(incoming, { force: true });
    }
    await fsp.rm(from, { force: true });
  }
}

/** The two-hex-digit entries of a blob directory level. */
function hexEntries(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir)
      .filter((name) => /^[0-9a-f]{2}$/.test(name))
      .sort();
  } catch {
    return [];
  }
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await fsp.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
