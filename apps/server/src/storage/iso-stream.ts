/**
 * A streaming ISO 9660 image writer for "CD" downloads (DICOM PS3.12 Annex F, the CD-R media
 * profile): Level 1 names, one Primary Volume Descriptor, no extensions (Joliet or Rock Ridge
 * would only repeat the same upper-case names, which every reader already shows as they are).
 *
 * DICOM File IDs map straight onto ISO paths: the File ID DICOM\1\7 is the file `/DICOM/1/7.;1`
 * (PS3.12 F.1.2.1: no extension, version 1), and the File-set ID is the Volume Identifier
 * (F.1.1). So the DICOMDIR written for the ZIP holds for the image unchanged.
 *
 * Memory stays constant in the size of the data: the layout (which sector each directory and file
 * starts at) is computed from the indexed file sizes before the first byte, so the length is
 * known for Content-Length; then the descriptors, path tables and directories are generated
 * (their size grows with the number of files, like a ZIP's central directory), and each file's
 * bytes pass straight through, read lazily one entry at a time.
 */
import type { ZipEntry } from './zip-stream.js';

/** The same lazily opened entries the ZIP writer takes. */
export type IsoEntry = ZipEntry;

const SECTOR = 2048;
const SYSTEM_AREA_SECTORS = 16;
/** Level 1: a file is one extent, its length a 32-bit field. */
const MAX_FILE = 0xffffffff;
/** Level 1 names: 1–8 d-characters (PS3.10 File ID components are a subset). */
const COMPONENT = /^[A-Z0-9_]{1,8}$/;
/** ISO 9660 6.8.2.1: at most 8 directory levels, the root counting as one. */
const MAX_DEPTH = 8;

export class IsoSizeMismatchError extends Error {}

interface Dir {
  name: string;
  parent: Dir | null;
  dirs: Map<string, Dir>;
  files: Map<string, FileNode>;
  /** 1-based position in the path table. */
  number: number;
  sector: number;
  size: number;
}

interface FileNode {
  name: string;
  entry: IsoEntry;
  sector: number;
}

interface Layout {
  root: Dir;
  /** Directories in path-table order (breadth first, children by name). */
  dirs: Dir[];
  /** Files in the order their data is written. */
  files: FileNode[];
  pathTableSize: number;
  pathTableSectors: number;
  lPathSector: number;
  mPathSector: number;
  totalSectors: number;
}

const sectorsFor = (bytes: number) => Math.ceil(bytes / SECTOR);

function newDir(name: string, parent: Dir | null): Dir {
  return { name, parent, dirs: new Map(), files: new Map(), number: 0, sector: 0, size: 0 };
}

/** ISO 9660 9.3: identifiers compare as if padded with spaces (so "1" < "10" < "2"). */
function compareIds(a: string, b: string): number {
  const width = Math.max(a.length, b.length);
  const pa = a.padEnd(width, ' ');
  const pb = b.padEnd(width, ' ');
  return pa < pb ? -1 : pa > pb ? 1 : 0;
}

/** A directory's records: ".", "..", then its files and subdirectories by name. */
function children(dir: Dir): ({ kind: 'dir'; node: Dir } | { kind: 'file'; node: FileNode })[] {
  return [
    ...[...dir.dirs.values()].map((node) => ({ kind: 'dir' as const, node })),
    ...[...dir.files.values()].map((node) => ({ kind: 'file' as const, node })),
  ].sort((x, y) => compareIds(x.node.name, y.node.name));
}

/** The bytes a file's identifier takes in its directory record. */
const fileIdentifier = (name: string) => `${name}.;1`;

function recordLength(identifierLength: number): number {
  const length = 33 + identifierLength;
  return length % 2 ? length + 1 : length;
}

/** A directory's extent length: records never straddle a sector (ISO 9660 6.8.1.1). */
function directorySize(dir: Dir): number {
  let used = 0;
  let sectors = 1;
  const add = (length: number) => {
    if (used + length > SECTOR) {
      sectors += 1;
      used = 0;
    }
    used += length;
  };
  add(34); // "."
  add(34); // ".."
  for (const child of children(dir)) {
    add(recordLength(child.kind === 'dir' ? child.node.name.length : fileIdentifier(child.node.name).length));
  }
  return sectors * SECTOR;
}

function pathRecordLength(dir: Dir): number {
  const nameLength = dir.parent ? dir.name.length : 1;
  return 8 + nameLength + (nameLength % 2);
}

/** Where everything goes; depends only on names and sizes, so it is known before streaming. */
function layout(entries: readonly IsoEntry[]): Layout {
  const root = newDir('', null);
  const files: FileNode[] = [];
  for (const entry of entries) {
    const parts = entry.name.split('/');
    if (parts.length > MAX_DEPTH) throw new Error(`${entry.name}: deeper than ${MAX_DEPTH} levels`);
    for (const part of parts) {
      if (!COMPONENT.test(part)) throw new Error(`${entry.name}: not an ISO 9660 level 1 name`);
    }
    if (entry.size > MAX_FILE) throw new Error(`${entry.name}: larger than 4 GiB`);
    let dir = root;
    for (const part of parts.slice(0, -1)) {
      if (dir.files.has(part)) throw new Error(`${entry.name}: ${part} is a file`);
      let next = dir.dirs.get(part);
      if (!next) {
        next = newDir(part, dir);
        dir.dirs.set(part, next);
      }
      dir = next;
    }
    const name = parts[parts.length - 1]!;
    if (dir.files.has(name) || dir.dirs.has(name)) throw new Error(`${entry.name}: listed twice`);
    const file: FileNode = { name, entry, sector: 0 };
    dir.files.set(name, file);
    files.push(file);
  }

  // Path-table order (ISO 9660 9.4.1): by level, then by parent's number, then by name; a
  // breadth-first walk that visits children by name yields exactly that.
  const dirs: Dir[] = [];
  const queue = [root];
  while (queue.length) {
    const dir = queue.shift()!;
    dir.number = dirs.length + 1;
    dirs.push(dir);
    queue.push(...[...dir.dirs.values()].sort((a, b) => compareIds(a.name, b.name)));
  }

  const pathTableSize = dirs.reduce((sum, d) => sum + pathRecordLength(d), 0);
  const pathTableSectors = sectorsFor(pathTableSize);
  // System area, the primary descriptor, the set terminator, then the two path tables.
  const lPathSector = SYSTEM_AREA_SECTORS + 2;
  const mPathSector = lPathSector + pathTableSectors;
  let sector = mPathSector + pathTableSectors;
  for (const dir of dirs) {
    dir.size = directorySize(dir);
    dir.sector = sector;
    sector += dir.size / SECTOR;
  }
  for (const file of files) {
    file.sector = sector;
    sector += sectorsFor(file.entry.size);
  }
  return {
    root,
    dirs,
    files,
    pathTableSize,
    pathTableSectors,
    lPathSector,
    mPathSector,
    totalSectors: sector,
  };
}

/** The byte length of the image `isoStream` will produce for these entries. */
export function isoLength(entries: readonly IsoEntry[]): number {
  return layout(entries).totalSectors * SECTOR;
}

function bothEndian32(buffer: Buffer, at: number, value: number): void {
  buffer.writeUInt32LE(value, at);
  buffer.writeUInt32BE(value, at + 4);
}

function bothEndian16(buffer: Buffer, at: number, value: number): void {
  buffer.writeUInt16LE(value, at);
  buffer.writeUInt16BE(value, at + 2);
}

/** ISO 9660 9.1.5: seven bytes, UTC (offset 0). */
function recordingDate(at: Date): Buffer {
  return Buffer.from([
    at.getUTCFullYear() - 1900,
    at.getUTCMonth() + 1,
    at.getUTCDate(),
    at.getUTCHours(),
    at.getUTCMinutes(),
    at.getUTCSeconds(),
    0,
  ]);
}

/** ISO 9660 8.4.26.1: "YYYYMMDDHHMMSScc" digits and an offset byte. */
function volumeDate(at: Date | null): Buffer {
  const out = Buffer.alloc(17, 0);
  const digits = at
    ? at
        .toISOString()
        .replace(/[-:T.Z]/g, '')
        .slice(0, 16)
    : '0'.repeat(16);
  out.write(digits, 0, 'ascii');
  return out;
}

function directoryRecord(
  identifier: Buffer,
  sector: number,
  size: number,
  isDir: boolean,
  date: Buffer,
): Buffer {
  const record = Buffer.alloc(recordLength(identifier.length));
  record.writeUInt8(record.length, 0);
  bothEndian32(record, 2, sector);
  bothEndian32(record, 10, size);
  date.copy(record, 18);
  record.writeUInt8(isDir ? 2 : 0, 25);
  bothEndian16(record, 28, 1); // volume sequence number
  record.writeUInt8(identifier.length, 32);
  identifier.copy(record, 33);
  return record;
}

function primaryDescriptor(plan: Layout, volumeId: string, created: Date): Buffer {
  const d = Buffer.alloc(SECTOR, 0);
  d.writeUInt8(1, 0);
  d.write('CD001', 1, 'ascii');
  d.writeUInt8(1, 6);
  d.fill(0x20, 8, 40); // system identifier
  d.fill(0x20, 40, 72);
  d.write(volumeId.slice(0, 32), 40, 'ascii');
  bothEndian32(d, 80, plan.totalSectors);
  bothEndian16(d, 120, 1); // volume set size
  bothEndian16(d, 124, 1); // volume sequence number
  bothEndian16(d, 128, SECTOR);
  bothEndian32(d, 132, plan.pathTableSize);
  d.writeUInt32LE(plan.lPathSector, 140);
  d.writeUInt32BE(plan.mPathSector, 148);
  directoryRecord(Buffer.from([0]), plan.root.sector, plan.root.size, true, recordingDate(created)).copy(
    d,
    156,
  );
  d.fill(0x20, 190, 813); // volume set, publisher, preparer, application, file identifiers
  d.write('IMAGING INBOX', 574, 'ascii'); // application identifier
  volumeDate(created).copy(d, 813);
  volumeDate(created).copy(d, 830);
  volumeDate(null).copy(d, 847); // never expires
  volumeDate(null).copy(d, 864); // effective at once
  d.writeUInt8(1, 881); // file structure version
  return d;
}

function terminator(): Buffer {
  const d = Buffer.alloc(SECTOR, 0);
  d.writeUInt8(255, 0);
  d.write('CD001', 1, 'ascii');
  d.writeUInt8(1, 6);
  return d;
}

function pathTable(plan: Layout, bigEndian: boolean): Buffer {
  const table = Buffer.alloc(plan.pathTableSectors * SECTOR, 0);
  let at = 0;
  for (const dir of plan.dirs) {
    const name = dir.parent ? Buffer.from(dir.name, 'ascii') : Buffer.from([0]);
    table.writeUInt8(name.length, at);
    if (bigEndian) {
      table.writeUInt32BE(dir.sector, at + 2);
      table.writeUInt16BE(dir.parent ? dir.parent.number : 1, at + 6);
    } else {
      table.writeUInt32LE(dir.sector, at + 2);
      table.writeUInt16LE(dir.parent ? dir.parent.number : 1, at + 6);
    }
    name.copy(table, at + 8);
    at += pathRecordLength(dir);
  }
  return table;
}

function directoryExtent(dir: Dir, date: Buffer): Buffer {
  const out = Buffer.alloc(dir.size, 0);
  let sectorStart = 0;
  let at = 0;
  const put = (record: Buffer) => {
    if (at + record.length > sectorStart + SECTOR) {
      sectorStart += SECTOR;
      at = sectorStart;
    }
    record.copy(out, at);
    at += record.length;
  };
  put(directoryRecord(Buffer.from([0]), dir.sector, dir.size, true, date));
  const parent = dir.parent ?? dir;
  put(directoryRecord(Buffer.from([1]), parent.sector, parent.size, true, date));
  for (const child of children(dir)) {
    if (child.kind === 'dir') {
      put(
        directoryRecord(
          Buffer.from(child.node.name, 'ascii'),
          child.node.sector,
          child.node.size,
          true,
          date,
        ),
      );
    } else {
      const { node } = child;
      put(
        directoryRecord(
          Buffer.from(fileIdentifier(node.name), 'ascii'),
          node.sector,
          node.entry.size,
          false,
          date,
        ),
      );
    }
  }
  return out;
}

/**
 * Yields the image chunk by chunk, pull-driven like the ZIP writer: a file is opened only when
 * its turn comes, and a source yielding more or fewer bytes than its indexed size aborts the
 * stream (the image's directories would otherwise lie).
 */
/** A file's padding to its last sector: a view of these (never written to), not a new buffer each. */
const SECTOR_ZEROS = Buffer.alloc(SECTOR);

export async function* isoStream(
  entries: readonly IsoEntry[],
  options: { volumeId?: string; created?: Date } = {},
): AsyncGenerator<Uint8Array> {
  const plan = layout(entries);
  const created = options.created ?? new Date();
  const date = recordingDate(created);
  yield Buffer.alloc(SYSTEM_AREA_SECTORS * SECTOR, 0);
  yield primaryDescriptor(plan, options.volumeId ?? '', created);
  yield terminator();
  yield pathTable(plan, false);
  yield pathTable(plan, true);
  for (const dir of plan.dirs) yield directoryExtent(dir, date);
  for (const file of plan.files) {
    let seen = 0;
    for await (const chunk of file.entry.open()) {
      seen += chunk.byteLength;
      if (seen > file.entry.size)
        throw new IsoSizeMismatchError(`${file.entry.name}: longer than ${file.entry.size}`);
      yield chunk;
    }
    if (seen !== file.entry.size) {
      throw new IsoSizeMismatchError(`${file.entry.name}: ${seen} of ${file.entry.size} bytes`);
    }
    const tail = seen % SECTOR;
    if (tail) yield SECTOR_ZEROS.subarray(0, SECTOR - tail);
  }
}
