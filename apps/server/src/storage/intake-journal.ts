import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The intake journal: what makes a new blob durable before its answer goes out, at the cost of one
 * overwrite of already-allocated file space and its fdatasync, instead of a new file's create,
 * write and fdatasync (on ext4 the new file's sync is a journal commit of its inode, its directory
 * entry and its block allocation; an overwrite in place is the data alone: 0.5 ms against 2.5 ms
 * for a 28 KB instance on the machine of docs/performance-log.md).
 *
 * Each writer thread (durable-writer.ts), and the main thread for the small files it writes itself,
 * owns segment files `DATA_DIR/journal/<thread>-<n>.seg`.
 * A stored blob is appended to the thread's active segment as a record (its key and bytes) and the
 * segment's fdatasync starts on the thread pool while the thread creates and writes the blob's own
 * file under its key, without a sync: once the record is synced the blob can be rebuilt whatever
 * the disk kept of its own file. Records waiting on one thread share one fdatasync (decision 0047,
 * 0049); the store answers once the record is synced and the file written. A segment is sealed when full or when writes
 * have rested for a moment; once sealed segments are checkpointed (one syncfs of the blob store's
 * file system makes every file they cover durable), they are free again and rewritten from the
 * start under a new generation, so their space is allocated once per thread and stays allocated.
 * A clean close checkpoints and removes them.
 *
 * A start replays every segment (`replayJournal`): each record of the segment's generation whose
 * file is missing or does not hold its bytes is written again; then the file system is synced and
 * every segment freed. A record is trusted only when its bytes hash to its key (a torn record was
 * never answered). Restored files are recent, so the recovery scan that follows an unclean stop
 * indexes them (ingest/recovery-scan.ts).
 *
 * Layout (little-endian): a 16-byte segment header `IJNL`, generation u32, 8 bytes zero; records
 * `IREC`, generation u32, byte length u32, key length u32, the key (UTF-8), the bytes. Space past
 * the last record is zeros or an older generation's records, which end the replay.
 */
export const SEGMENT_MAGIC = 0x4c4e4a49; // 'IJNL'
export const RECORD_MAGIC = 0x43455249; // 'IREC'
export const SEGMENT_HEADER = 16;
export const RECORD_HEADER = 16;
/** A segment's largest size. */
export const SEGMENT_MAX_BYTES = 64 * 1024 * 1024;
/**
 * The largest record the journal takes; a bigger blob takes its file's own sync instead. The
 * journal saves a new file's metadata commit, a fixed cost, but writes the bytes twice: for a
 * 0.5 MB CT instance over four associations the file's own sync stored 20–40% more per second
 * (docs/performance-log.md), while a 28 KB instance gains from the journal.
 */
export const RECORD_MAX_BYTES = 128 * 1024;
/** How long after its last write an active segment is sealed and checkpointed. */
export const SEAL_AFTER_MS = 2000;

export interface JournalReplay {
  /** Records found of their segment's generation. */
  records: number;
  /** Files written again because the disk did not hold them. */
  restored: number;
  /**
   * Records left unwritten because something other than a directory holds their place in the blob
   * tree (a file put there by hand). The create that failed on it at the time answered a failure,
   * so nothing acknowledged depends on these; the start goes on instead of stopping on them.
   */
  blocked: string[];
}

/**
 * Rebuilds, from the journal in `dir`, every file under `blobRoot` it covers that the disk lost;
 * then syncs the file system and removes the segments.
 * Synchronous: runs at start before anything stores.
 */
export function replayJournal(dir: string, blobRoot: string): JournalReplay {
  const report: JournalReplay = { records: 0, restored: 0, blocked: [] };
  const segments = segmentFiles(dir);
  if (!segments.length) return report;
  const covered: string[] = [];
  for (const segment of segments) {
    const fd = fs.openSync(segment, 'r+');
    try {
      const header = Buffer.alloc(SEGMENT_HEADER);
      if (fs.readSync(fd, header, 0, SEGMENT_HEADER, 0) < SEGMENT_HEADER) continue;
      if (header.readUInt32LE(0) !== SEGMENT_MAGIC) continue;
      const generation = header.readUInt32LE(4);
      const size = fs.fstatSync(fd).size;
      let offset = SEGMENT_HEADER;
      const recordHeader = Buffer.alloc(RECORD_HEADER);
      while (offset + RECORD_HEADER <= size) {
        fs.readSync(fd, recordHeader, 0, RECORD_HEADER, offset);
        if (recordHeader.readUInt32LE(0) !== RECORD_MAGIC || recordHeader.readUInt32LE(4) !== generation)
          break;
        const length = recordHeader.readUInt32LE(8);
        const keyLength = recordHeader.readUInt32LE(12);
        if (offset + RECORD_HEADER + keyLength + length > size || keyLength > 1024) break;
        const key = Buffer.alloc(keyLength);
        fs.readSync(fd, key, 0, keyLength, offset + RECORD_HEADER);
        const bytes = Buffer.allocUnsafe(length);
        fs.readSync(fd, bytes, 0, length, offset + RECORD_HEADER + keyLength);
        const name = key.toString('utf8');
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        // A torn record (never answered) or a foreign one: stop here.
        if (!name.includes(sha256) || name.includes('..')) break;
        report.records += 1;
        const file = path.join(blobRoot, name);
        const restored = restore(file, bytes, sha256);
        if (restored === 'blocked') report.blocked.push(name);
        else {
          covered.push(file);
          if (restored) report.restored += 1;
        }
        offset += RECORD_HEADER + keyLength + length;
      }
    } finally {
      fs.closeSync(fd);
    }
  }
  if (covered.length) syncFileSystemSync(blobRoot, covered);
  for (const segment of segments) fs.rmSync(segment, { force: true });
  return report;
}

/**
 * Writes `bytes` to `file` unless it already holds them; true when it had to, 'blocked' when a
 * file stands where one of its directories belongs.
 */
function restore(file: string, bytes: Buffer, sha256: string): boolean | 'blocked' {
  try {
    const held = fs.readFileSync(file);
    if (held.byteLength === bytes.byteLength && createHash('sha256').update(held).digest('hex') === sha256) {
      return false;
    }
  } catch {
    // missing: written below
  }
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') return 'blocked';
    throw error;
  }
  const temp = `${file}.${process.pid}.replay`;
  fs.writeFileSync(temp, bytes);
  fs.renameSync(temp, file);
  return true;
}

/** The segment files of a journal directory (none when it does not exist). */
export function segmentFiles(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.seg'))
      .sort()
      .map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}

const execFileAsync = promisify(execFile);

/**
 * syncfs(2) of the file system holding `dir` (coreutils' `sync -f`; Node has no binding): every
 * file written there so far is durable once it resolves. Where the command is missing, each of
 * `files` is fdatasynced instead.
 */
export async function syncFileSystem(dir: string, files: readonly string[]): Promise<void> {
  try {
    await execFileAsync('sync', ['-f', dir]);
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  for (const file of files) {
    const handle = await fs.promises.open(file, 'r').catch(() => undefined);
    if (!handle) continue; // removed since: nothing to keep
    try {
      await handle.datasync();
    } finally {
      await handle.close();
    }
  }
}

function syncFileSystemSync(dir: string, files: readonly string[]): void {
  try {
    execFileSync('sync', ['-f', dir]);
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  for (const file of files) {
    const fd = fs.openSync(file, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    const parent = fs.openSync(path.dirname(file), 'r');
    try {
      fs.fsyncSync(parent);
    } finally {
      fs.closeSync(parent);
    }
  }
}
