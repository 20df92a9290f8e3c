import fs from 'node:fs';

/**
 * File systems on which a new file's own fsync (or fdatasync) also makes durable its directory
 * entry and the directories created for it, so fsyncing those directories afterwards adds nothing:
 * - ext4 with a journal creates the inode and its entry in one journal transaction and records it
 *   as the inode's data-sync transaction; fsync commits it, and the journal commits in order, so
 *   earlier mkdirs are committed too. Without a journal, ext4's fsync syncs the new file's parents
 *   itself.
 * - XFS logs the inode and the directory change in one transaction; fsync forces the log up to it.
 * - Btrfs logs a new inode's name and any new parent directories in its fsync log.
 * Elsewhere (ext2 and ext3 under their own drivers, NFS, FUSE, unknown), POSIX is followed: the
 * directory is fsynced. Measured on ext4 over virtio, each directory fsync after the file's is a
 * disk cache flush of its own, about as long as the file's sync.
 */
const NAME_DURABLE_WITH_FILE = new Set(['ext4', 'xfs', 'btrfs']);

/** Whether creating and fsyncing a file under `dir` makes its name durable (Linux only; else false). */
export function fileSyncPersistsItsName(dir: string, mountInfo = readMountInfo()): boolean {
  if (mountInfo === null) return false;
  let real: string;
  try {
    real = fs.realpathSync(dir);
  } catch {
    return false;
  }
  const type = fileSystemTypeOf(real, mountInfo);
  return type !== undefined && NAME_DURABLE_WITH_FILE.has(type);
}

/**
 * The type of the file system mounted over `absolutePath`: the mount with the longest mount point
 * that contains the path; of several at one mount point, the last (it hides the earlier ones).
 */
export function fileSystemTypeOf(absolutePath: string, mountInfo: string): string | undefined {
  let best: { point: string; type: string } | undefined;
  for (const line of mountInfo.split('\n')) {
    const mount = parseMountInfoLine(line);
    if (!mount || !contains(mount.point, absolutePath)) continue;
    if (!best || mount.point.length >= best.point.length) best = mount;
  }
  return best?.type;
}

/**
 * One line of /proc/self/mountinfo (proc(5)): the mount point is field 5, the type is the first field
 * after the ' - ' separator. Spaces and other odd bytes in the mount point are octal escapes.
 */
function parseMountInfoLine(line: string): { point: string; type: string } | undefined {
  const separator = line.indexOf(' - ');
  if (separator < 0) return undefined;
  const fields = line.slice(0, separator).split(' ');
  const type = line.slice(separator + 3).split(' ')[0];
  const point = fields[4];
  if (point === undefined || !type) return undefined;
  return {
    point: point.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8))),
    type,
  };
}

function contains(mountPoint: string, absolutePath: string): boolean {
  if (mountPoint === '/') return true;
  return absolutePath === mountPoint || absolutePath.startsWith(`${mountPoint}/`);
}

/** The mount table, or null where there is none to read (not Linux, /proc not mounted). */
function readMountInfo(): string | null {
  if (process.platform !== 'linux') return null;
  try {
    return fs.readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return null;
  }
}
